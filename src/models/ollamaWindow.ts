// The window Ollama actually runs a model with. Ollama picks it when it loads
// the model (from OLLAMA_CONTEXT_LENGTH, the Modelfile's num_ctx, or by video
// memory: 4k, 32k or 256k), not from the model's own, and answers a longer
// request without an error, having left out its oldest messages; so the
// model's nominal window (the built-in table) overstates it. Its OpenAI-compatible /v1/models does not say;
// its native GET /api/ps lists the loaded models with `context_length`. Only a
// loaded model is there: a request that may not fit a small window loads the
// model first (POST /api/generate without a prompt, which only loads it, with
// the options the chat request would get), so that even the first request is
// condensed to the window Ollama gives it.

export interface OllamaProbe {
  /** The loaded model's window, or undefined: not loaded now, or listed without it (an older Ollama). */
  readonly window: number | undefined;
  /** `no`: the server has no /api/ps (not Ollama), not worth asking again; `unknown`: no answer (down, too slow). */
  readonly isOllama: 'yes' | 'no' | 'unknown';
  /** Ollama, and the model is not loaded now. */
  readonly unloaded: boolean;
}

/** The least window Ollama gives a model (its default before it picked one by video memory); a smaller request fits whatever it picks. */
export const SMALLEST_OLLAMA_WINDOW = 2048;

/** How long loading a model may take (a large model from a slow disk) before the request goes without. */
const LOAD_TIMEOUT_MS = 120_000;

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
    if (!response.ok) return { window: undefined, isOllama: 'no', unloaded: false };
    const body = (await response.json()) as { models?: unknown };
    if (!Array.isArray(body.models)) return { window: undefined, isOllama: 'no', unloaded: false };
    const entry = body.models.find((candidate) => {
      const record = candidate as { name?: unknown; model?: unknown } | null;
      return sameModel(record?.name, model) || sameModel(record?.model, model);
    }) as { context_length?: unknown } | undefined;
    const window = entry?.context_length;
    return { window: typeof window === 'number' && Number.isInteger(window) && window > 0 ? window : undefined, isOllama: 'yes', unloaded: entry === undefined };
  } catch (error) {
    // Not JSON: not Ollama. Not reachable or too slow: nothing known, maybe later.
    return { window: undefined, isOllama: error instanceof SyntaxError ? 'no' : 'unknown', unloaded: false };
  }
}

/**
 * Loads `model` on an Ollama server, as the next chat request would (same
 * default options, so the same window); true when Ollama says it is loaded.
 * Any failure is false: the request then goes as it would have.
 */
export async function loadOllamaModel(baseUrl: string, model: string, headers: Record<string, string>, fetchImpl: typeof fetch, signal: AbortSignal): Promise<boolean> {
  try {
    const response = await fetchImpl(`${ollamaRoot(baseUrl)}/api/generate`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: false }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(LOAD_TIMEOUT_MS)]),
    });
    if (!response.ok) return false;
    const body = (await response.json()) as { done?: unknown };
    return body.done === true;
  } catch {
    return false;
  }
}
