// A web page as a model reads it best: Markdown (headings, lists, links, code
// blocks kept), without the parts that are not its content (scripts, styles,
// navigation, forms). turndown does the conversion; it is loaded on the first
// page, not with the extension. No vscode import.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type TurndownService from 'turndown';

/** Elements whose text is not the page's content. */
const NOT_CONTENT = new Set(['head', 'title', 'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'nav', 'footer', 'aside', 'form', 'button', 'select', 'input', 'textarea']);

let loaded: typeof TurndownService | undefined;

/**
 * turndown and the DOM it parses with (~1 MB) ship as their own bundle beside
 * this one (dist/turndown.js, see esbuild.mjs), so host.js stays small;
 * unbundled (tests, tsx) the package is required directly.
 */
function turndownClass(): typeof TurndownService {
  if (loaded) return loaded;
  const bundled = path.join(__dirname, 'turndown.js');
  // A computed specifier: esbuild must not pull turndown into the bundle that contains this file.
  const specifier = existsSync(bundled) ? bundled : ['turn', 'down'].join('');
  const module = require(specifier) as typeof TurndownService | { default: typeof TurndownService };
  loaded = 'default' in module ? module.default : module;
  return loaded;
}

function turndown(base: string): TurndownService {
  const Turndown = turndownClass();
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
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

/** `base`: the page's URL, which its relative links are resolved against. */
export async function htmlToMarkdown(html: string, base: string): Promise<PageText> {
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
