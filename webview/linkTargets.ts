// Where a link in the panel's Markdown goes. The models link the files they
// talk about (`[app.js](lib/app.js#L12)`); inside a webview such a link would
// resolve against the webview's own address and open a broken browser tab, so
// a workspace path goes to the host, which opens it in an editor. Web links
// are left to VS Code (it asks before opening them); any other scheme
// (command:, vscode:, javascript:, data:) does nothing.

export type LinkTarget =
  | { readonly kind: 'web' }
  | { readonly kind: 'file'; readonly path: string; readonly line?: number | undefined }
  | { readonly kind: 'none' };

const WEB = /^(?:https?|mailto):/iu;
// A scheme that is not a path: a drive letter (C:) and a `name.ext:12` line suffix are paths.
const OTHER_SCHEME = /^(?:file|command|vscode(?:-[a-z]+)?|javascript|data|blob|about|ftp|ssh|git|vbscript):/iu;

export function linkTarget(href: string): LinkTarget {
  const raw = href.trim();
  if (raw === '' || raw.startsWith('#')) return { kind: 'none' };
  if (WEB.test(raw)) return { kind: 'web' };
  if (/^file:/iu.test(raw)) return fileLink(fileUrlPath(raw));
  if (OTHER_SCHEME.test(raw) || raw.startsWith('//')) return { kind: 'none' };
  return fileLink(raw);
}

/** `path#L12`, `path#L12-L20`, `path#12` or `path:12[:col]`, percent-decoded. */
function fileLink(raw: string | undefined): LinkTarget {
  if (raw === undefined) return { kind: 'none' };
  let rest = raw;
  let line: number | undefined;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    line = lineOf(/^L?(\d+)/iu.exec(rest.slice(hash + 1))?.[1]);
    rest = rest.slice(0, hash);
  }
  rest = rest.split('?')[0] ?? '';
  const suffix = /:(\d+)(?::\d+)?$/u.exec(rest);
  if (suffix && line === undefined) {
    line = lineOf(suffix[1]);
    rest = rest.slice(0, suffix.index);
  }
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    path = rest;
  }
  path = path.replace(/^\.\//u, '');
  return path === '' ? { kind: 'none' } : { kind: 'file', path, line };
}

function lineOf(digits: string | undefined): number | undefined {
  const line = digits === undefined ? undefined : Number(digits);
  return line !== undefined && Number.isSafeInteger(line) && line >= 1 ? line : undefined;
}

function fileUrlPath(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.host === '' || url.host === 'localhost' ? `${url.pathname}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}
