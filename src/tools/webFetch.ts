// One GET for fetch_url: redirects followed only within the origin the user
// approved (another origin is reported, not followed: fetching it is a new
// call, asked again), the body read up to a cap, its text decoded by the
// charset the server names. No vscode import.
import { CancelledError } from '../common/errors';

/** The most of a body read; past it the text is cut and says so. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 30_000;

export interface FetchedPage {
  /** Where the body came from (after same-origin redirects). */
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  /** The media type, lower case, without parameters ('' when the server sent none). */
  readonly mediaType: string;
  /** The body as text, when the media type is text; undefined for binary content. */
  readonly text: string | undefined;
  /** Bytes read (at most MAX_BODY_BYTES); for binary content, which is not read, the size the server gave (0: none). */
  readonly bytes: number;
  /** The body was longer than MAX_BODY_BYTES. */
  readonly cut: boolean;
  /** A redirect to another origin, not followed. */
  readonly redirectedTo?: string | undefined;
}

/** Media types read as text: what a page, a document or an API answer comes as. */
export function isTextual(mediaType: string): boolean {
  return (
    mediaType === '' ||
    mediaType.startsWith('text/') ||
    /^application\/([\w.+-]+\+)?(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|graphql|ld\+json|markdown)$/.test(mediaType) ||
    mediaType === 'image/svg+xml'
  );
}

export async function fetchPage(url: URL, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const both = AbortSignal.any([signal, timeout]);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetchImpl(current, {
        redirect: 'manual',
        signal: both,
        headers: { accept: 'text/html,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5', 'user-agent': 'Tandem (VS Code extension; fetch_url)' },
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, current);
        if (next.origin !== url.origin || hop >= MAX_REDIRECTS) {
          return { url: current.href, status: response.status, statusText: response.statusText, mediaType: '', text: undefined, bytes: 0, cut: false, redirectedTo: next.href };
        }
        current = next;
        continue;
      }
      const contentType = response.headers.get('content-type') ?? '';
      const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
      if (!isTextual(mediaType)) {
        // Not shown, so not downloaded: its size is what the server says.
        await response.body?.cancel();
        const bytes = Number(response.headers.get('content-length')) || 0;
        return { url: current.href, status: response.status, statusText: response.statusText, mediaType, text: undefined, bytes, cut: false };
      }
      const { body, cut } = await readCapped(response);
      return { url: current.href, status: response.status, statusText: response.statusText, mediaType, text: decode(body, charsetOf(contentType)), bytes: body.byteLength, cut };
    }
  } catch (error) {
    if (signal.aborted) throw new CancelledError();
    if (timeout.aborted) throw new Error(`no complete answer from ${current.origin} within ${TIMEOUT_MS / 1000} s`);
    throw new Error(`could not fetch ${current.href}: ${whyFailed(error)}`);
  }
}

/** Node's fetch says "fetch failed" for everything: the reason is in its cause. */
function whyFailed(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const detail = typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `its host name was not found (${code})`;
  if (code === 'ECONNREFUSED') return 'the connection was refused: nothing listens there (ECONNREFUSED)';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || detail === 'terminated') return `the connection closed before the whole response came (${code || detail})`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return `its TLS certificate was not accepted (${code})`;
  if (detail === 'bad port') return 'fetch refuses that port (one of the ports browsers block)';
  return code ? `${detail} (${code})` : detail;
}

async function readCapped(response: Response): Promise<{ body: Uint8Array; cut: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: join(chunks, size), cut: false };
    const room = MAX_BODY_BYTES - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel();
      return { body: join(chunks, MAX_BODY_BYTES), cut: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
}

function join(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function charsetOf(contentType: string): string {
  return /;\s*charset="?([\w-]+)"?/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
}

function decode(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    // A charset TextDecoder does not know: UTF-8 shows most of such a page.
    return new TextDecoder('utf-8').decode(body);
  }
}
