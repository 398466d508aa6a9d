// The end of a browser sign-in: a one-shot HTTP listener on 127.0.0.1 that
// takes the authorization server's redirect (RFC 8252 loopback redirect),
// tells the user they can close the tab, and hands the URL back. It listens
// only while a sign-in is under way and closes after the first callback, the
// time limit, or an abort.
import * as http from 'node:http';
import { CancelledError, TandemError } from '../common/errors';

/** The fixed loopback port: a registered client's redirect URI must stay the same between sign-ins. */
export const LOOPBACK_REDIRECT_PORT = 33418;
export const LOOPBACK_REDIRECT_PATH = '/callback';

export function loopbackRedirectUrl(port = LOOPBACK_REDIRECT_PORT): string {
  return `http://127.0.0.1:${port}${LOOPBACK_REDIRECT_PATH}`;
}

export interface LoopbackRedirect {
  /** The port it listens on. */
  readonly port: number;
  /** Resolves with the URL the browser was sent back to. */
  readonly redirect: Promise<URL>;
  close(): void;
}

/** Starts listening; resolves once the port is open (rejects when it is taken). */
export async function listenForRedirect(port: number, timeoutMs: number, signal?: AbortSignal): Promise<LoopbackRedirect> {
  let settle: (outcome: URL | Error) => void = () => undefined;
  const redirect = new Promise<URL>((resolve, reject) => {
    settle = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
  });
  redirect.catch(() => undefined);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== LOOPBACK_REDIRECT_PATH) {
      response.writeHead(404).end();
      return;
    }
    const failed = url.searchParams.has('error');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Tandem</title><p>${failed ? 'Sign-in did not complete.' : 'Signed in.'} You can close this tab and return to VS Code.</p>`);
    finish(url);
  });
  const timer = setTimeout(() => finish(new TandemError(`Sign-in did not finish within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
  const onAbort = (): void => finish(new CancelledError());
  let finished = false;
  const finish = (outcome: URL | Error): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections();
    settle(outcome);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      finish(error);
      reject(
        error.code === 'EADDRINUSE'
          ? new TandemError(`Port ${port} on 127.0.0.1 is in use, so the sign-in cannot come back; close what holds it and try again.`, { cause: error })
          : error,
      );
    });
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : port, redirect, close: () => finish(new CancelledError()) };
}

/**
 * Listens on the preferred port, or on any free one when it is taken: the
 * preferred port lies in the range the system hands out to outgoing
 * connections, so now and then one holds it. Loopback redirect URIs match
 * whatever their port (RFC 8252 §7.3), so the registered client still fits.
 */
export async function listenForRedirectOnFreePort(
  preferredPort: number,
  timeoutMs: number,
  log?: (line: string) => void,
): Promise<LoopbackRedirect> {
  try {
    return await listenForRedirect(preferredPort, timeoutMs);
  } catch (error) {
    if (!(error instanceof TandemError) || (error.cause as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') throw error;
    const listener = await listenForRedirect(0, timeoutMs);
    log?.(`port ${preferredPort} is in use; the sign-in comes back to port ${listener.port}`);
    return listener;
  }
}
