// One abort controller per MCP request. The SDK sends notifications/cancelled
// whenever the signal it was given aborts, even long after the request has
// finished; a run's or a start's signal outlives its requests, so each request
// gets its own controller, linked to the outer signal only while in flight.
export async function withRequestSignal<T>(outer: AbortSignal | undefined, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  if (outer?.aborted === true) controller.abort(outer.reason);
  const forward = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forward, { once: true });
  try {
    return await request(controller.signal);
  } finally {
    outer?.removeEventListener('abort', forward);
  }
}
