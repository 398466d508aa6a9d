// The checks every request passes before it reaches a run: path and method,
// the Host header (DNS rebinding), the browser Origin (CORS), the bearer
// token and the body size. Each refusal is a JSON error the caller can read.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The input field at fault, for 400s. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

export function sendRefusal(response: ServerResponse, refusal: HttpRefusal, headers: Record<string, string> = {}): void {
  sendJson(response, refusal.status, { error: refusal.message, ...(refusal.field !== undefined && { field: refusal.field }) }, headers);
}

/** Loopback names only: a page on another host that resolves to 127.0.0.1 (DNS rebinding) is refused. */
export function checkHost(request: IncomingMessage): void {
  const host = (request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (host !== '127.0.0.1' && host !== 'localhost') throw new HttpRefusal(403, `Host "${request.headers.host ?? ''}" is not a loopback name.`);
}

/** The CORS headers for an allowed browser origin; throws 403 for a foreign one. No Origin header: not a browser, no CORS. */
export function corsHeaders(request: IncomingMessage, allowedOrigins: readonly string[]): Record<string, string> {
  const origin = request.headers.origin;
  if (origin === undefined) return {};
  if (!allowedOrigins.includes(origin.toLowerCase())) {
    throw new HttpRefusal(403, `Origin ${origin} is not allowed; add it to tandem.agui.allowedOrigins.`);
  }
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST, OPTIONS',
    // An allowed origin may send the headers its client library adds; the token still decides.
    'access-control-allow-headers': String(request.headers['access-control-request-headers'] ?? 'authorization, content-type, accept'),
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares in constant time (hashes first, so the length leaks nothing either). */
export function checkBearer(request: IncomingMessage, token: string): void {
  const header = request.headers.authorization;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new HttpRefusal(401, 'Missing bearer token: send Authorization: Bearer <token>.');
  if (!timingSafeEqual(digest(match[1]), digest(token))) throw new HttpRefusal(401, 'Wrong bearer token.');
}

/** Reads the body up to `limit` bytes; a longer one is refused with 413 without reading the rest. */
export async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new HttpRefusal(413, `The request body is over ${limit} bytes.`);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpRefusal(413, `The request body is over ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
