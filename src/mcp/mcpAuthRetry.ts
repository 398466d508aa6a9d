// The step after the SDK's auth() said "redirect": wait for the user's browser
// step, exchange the code for tokens, and try again, a bounded number of times
// (a server that keeps asking for more must not loop us forever).
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { CancelledError, TandemError } from '../common/errors';
import type { PendingAuthorization } from './mcpOAuthProvider';

/** An auth provider whose browser step can be awaited (McpOAuthProvider). */
export interface InteractiveAuthProvider extends OAuthClientProvider {
  takePending(): PendingAuthorization | undefined;
}

/** The server needs a sign-in that has not happened (no provider, or the user has not signed in). */
export class SignInRequiredError extends TandemError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, suggestion: 'Sign in from "Tandem: Show MCP Servers".' });
  }
}

const MAX_AUTHORIZATIONS = 3;

export async function withAuthorization<T>(
  provider: OAuthClientProvider | undefined,
  finishAuth: (code: string) => Promise<void>,
  attempt: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      const pending = isInteractive(provider) ? provider.takePending() : undefined;
      if (pending === undefined || round >= MAX_AUTHORIZATIONS) {
        throw new SignInRequiredError(round >= MAX_AUTHORIZATIONS ? 'the server kept asking for sign-in.' : 'the server asked for sign-in.', { cause: error });
      }
      const code = await untilAborted(pending.code(), signal);
      await finishAuth(code);
    }
  }
}

function isInteractive(provider: OAuthClientProvider | undefined): provider is InteractiveAuthProvider {
  return provider !== undefined && typeof (provider as Partial<InteractiveAuthProvider>).takePending === 'function';
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
