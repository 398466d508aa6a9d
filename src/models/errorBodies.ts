// Older vLLM (and servers copying it) send errors as a top-level
// `{"object": "error", "message": …}` instead of OpenAI's `{"error": {…}}`;
// the SDK then reports only "400 status code (no body)" and the reason (e.g.
// "maximum context length") is lost. This fetch wrapper re-nests such a body.
// Successful responses pass through untouched, so streaming costs nothing.

export function withNestedErrorBodies(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
    const nested =
      record && !('error' in record) && typeof record['message'] === 'string'
        ? JSON.stringify({ error: { message: record['message'], type: record['type'] ?? null, param: record['param'] ?? null, code: record['code'] ?? null } })
        : text;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(nested, { status: response.status, statusText: response.statusText, headers });
  };
}
