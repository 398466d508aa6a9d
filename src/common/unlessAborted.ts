// Waiting on work the user may walk away from: settling a run's preparation
// (settings consent, MCP servers starting) can take seconds, and Stop or a
// client that leaves must not wait for it.

/** `work`'s value, or undefined as soon as `signal` aborts (the work itself goes on; its failure is then ignored). */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
