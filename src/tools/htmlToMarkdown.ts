// A web page as a model reads it best: Markdown (headings, lists, links, code
// blocks kept), without the parts that are not its content (scripts, styles,
// navigation, forms). turndown does the conversion. It runs in a worker
// thread (htmlToMarkdownWorker.ts, started by pageConverter.ts), never on the
// extension host's thread: a big page takes seconds. No vscode import.
import TurndownService from 'turndown';

/** Elements whose text is not the page's content. */
const NOT_CONTENT = new Set(['head', 'title', 'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'nav', 'footer', 'aside', 'form', 'button', 'select', 'input', 'textarea']);

function turndown(base: string): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove((node) => NOT_CONTENT.has(node.nodeName.toLowerCase()));
  // Links as absolute URLs: the model can fetch them as they stand.
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = absolute((node as HTMLElement).getAttribute('href') ?? '', base);
      const text = content.trim();
      return href === undefined ? text : `[${text || href}](${href})`;
    },
  });
  return service;
}

function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export interface PageText {
  readonly title: string | undefined;
  readonly markdown: string;
}

/** `base`: the page's URL, which its relative links are resolved against. Synchronous and slow on a big page: call it off the host's thread. */
export function htmlToMarkdown(html: string, base: string): PageText {
  const service = turndown(base);
  const markdown = service
    .turndown(html)
    // Blank lines left by removed blocks: one is enough.
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: titleOf(html), markdown };
}

function titleOf(html: string): string | undefined {
  const raw = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const title = raw === undefined ? undefined : decodeEntities(raw).replace(/\s+/g, ' ').trim();
  return title || undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1]?.toLowerCase() === 'x' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}
