// The window Ollama actually runs a model with. Ollama picks it when it loads
// the model (from OLLAMA_CONTEXT_LENGTH, the Modelfile's num_ctx, or by video
// memory: 4k, 32k or 256k), not from the model's own, and answers a longer
// request without an error, having left out its oldest messages; so the
// model's nominal window (the built-in table) overstates it. Its OpenAI-compatible /v1/models does not say;
// its native GET /api/ps lists the loaded models with `context_length`. Only a
// loaded model is there: until the first request loads it, this knows nothing.

export interface OllamaProbe {
  /** The loaded model's window, or undefined: not loaded now, or not listed. */
  readonly window: number | undefined;
  /** `no`: the server has no /api/ps (not Ollama), not worth asking again; `unknown`: no answer (down, too slow). */
  readonly isOllama: 'yes' | 'no' | 'unknown';
}

/** The server's root: Ollama's native API sits beside its OpenAI-compatible /v1. */
function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Ollama names a model with its tag; a name without one means `:latest`. */
function sameModel(listed: unknown, wanted: string): boolean {
  if (typeof listed !== 'string') return false;
  return listed === wanted || (!wanted.includes(':') && listed === `${wanted}:latest`);
}

export async function probeOllamaWindow(baseUrl: string, model: string, headers: Record<string, string>, fetchImpl: typeof fetch): Promise<OllamaProbe> {
  try {
    const response = await fetchImpl(`${ollamaRoot(baseUrl)}/api/ps`, { headers, signal: AbortSignal.timeout(2000) });
    if (!response.ok) return { window: undefined, isOllama: 'no' };
    const body = (await response.json()) as { models?: unknown };
    if (!Array.isArray(body.models)) return { window: undefined, isOllama: 'no' };
    const entry = body.models.find((candidate) => {
      const record = candidate as { name?: unknown; model?: unknown } | null;
      return sameModel(record?.name, model) || sameModel(record?.model, model);
    }) as { context_length?: unknown } | undefined;
    const window = entry?.context_length;
    return { window: typeof window === 'number' && Number.isInteger(window) && window > 0 ? window : undefined, isOllama: 'yes' };
  } catch (error) {
    // Not JSON: not Ollama. Not reachable or too slow: nothing known, maybe later.
    return { window: undefined, isOllama: error instanceof SyntaxError ? 'no' : 'unknown' };
  }
}
