// What may appear in the log about a remote server: its URL without
// credentials and without query values (tokens often travel there), and its
// header names without their values.

const masked = '***';

/** The URL with user:password removed and every query value masked; unparsable text is masked whole past the host. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const host = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*/i.exec(url)?.[0];
    return host === undefined ? masked : `${host.replace(/\/\/.*@/, '//')}/${masked}`;
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
  }
  const names = [...parsed.searchParams.keys()];
  if (names.length > 0) parsed.search = names.map((name) => `${encodeURIComponent(name)}=${masked}`).join('&');
  return parsed.toString().replace(/%2A%2A%2A/g, masked);
}

/** Header names with masked values, for the log. */
export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, masked]));
}

/** Masks every URL inside a free text (an error message that quotes one). */
export function maskUrlsIn(text: string): string {
  // Punctuation right after a URL (`…?key=abc: refused`) ends the sentence, not the URL: it stays unmasked.
  return text.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, (found) => {
    const url = found.replace(/[.,:;!?]+$/, '');
    return maskUrl(url) + found.slice(url.length);
  });
}
