// How many tokens a model's context window holds. The user's setting wins;
// 0 means find out: the endpoint's own /models metadata where it reports one
// (vLLM `max_model_len`, OpenRouter `context_length`, LM Studio
// `max_context_length`, others `context_window`), else what Ollama runs the
// model with (ollamaWindow.ts), else a table of well-known models, else 32k —
// small enough to be safe for an unknown local model.
import type { ModelSettings } from './chatModel';
import { loadOllamaModel, probeOllamaWindow } from './ollamaWindow';

export const FALLBACK_CONTEXT_WINDOW = 32_768;

export interface ContextWindow {
  readonly tokens: number;
  /** `server`: what the server runs the model with now (Ollama's /api/ps). */
  readonly source: 'setting' | 'endpoint' | 'server' | 'table' | 'fallback';
  /** The server is Ollama and has not loaded the model yet: loading it tells the window (`loadedContextWindow`). */
  readonly unloadedOnOllama?: true;
}

/** Longest prefix first; names are matched without a provider prefix ("openai/gpt-4o" → "gpt-4o"). */
const KNOWN: readonly (readonly [prefix: string, tokens: number])[] = [
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude', 200_000],
  ['gemini', 1_048_576],
  ['deepseek', 128_000],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['llama3.3', 131_072],
  ['llama-3.1', 131_072],
  ['llama-3.2', 131_072],
  ['llama-3.3', 131_072],
  ['qwen2.5-coder', 32_768],
  ['qwen2.5', 32_768],
  ['qwen3', 40_960],
  ['mistral-large', 131_072],
  ['mistral-small', 32_768],
  ['mistral', 32_768],
  ['codestral', 262_144],
  ['gemma3', 131_072],
  ['gemma2', 8_192],
  ['phi4', 16_384],
];
const BY_LENGTH = [...KNOWN].sort((a, b) => b[0].length - a[0].length);

export function knownContextWindow(model: string): number | undefined {
  const name = (model.split('/').pop() ?? model).toLowerCase();
  return BY_LENGTH.find(([prefix]) => name.startsWith(prefix))?.[1];
}

const METADATA_FIELDS = ['context_length', 'max_model_len', 'max_context_length', 'context_window'] as const;

/** The window an entry of a /models list reports, if any. */
export function windowFromModelEntry(entry: unknown): number | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const record = entry as Record<string, unknown>;
  for (const field of METADATA_FIELDS) {
    const value = record[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  const top = record['top_provider'];
  return top && typeof top === 'object' ? windowFromModelEntry({ context_length: (top as Record<string, unknown>)['context_length'] }) : undefined;
}

const discovered = new Map<string, Promise<number | undefined>>();

/** Base URLs not to ask Ollama's /api/ps again, until when (ms): for good when the server has none, a minute when it did not answer. */
const notOllama = new Map<string, number>();
const UNANSWERED_PAUSE_MS = 60_000;

function authorization(settings: ModelSettings): Record<string, string> {
  return settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {};
}

/**
 * Asked on every run, unlike /models: the window is known only while the
 * model is loaded, and changes when Ollama loads it again with another.
 */
async function fromOllama(settings: ModelSettings, fetchImpl: typeof fetch): Promise<{ window: number | undefined; unloaded: boolean }> {
  if ((notOllama.get(settings.baseUrl) ?? 0) > Date.now()) return { window: undefined, unloaded: false };
  const probe = await probeOllamaWindow(settings.baseUrl, settings.model, authorization(settings), fetchImpl);
  if (probe.isOllama === 'no') notOllama.set(settings.baseUrl, Number.POSITIVE_INFINITY);
  if (probe.isOllama === 'unknown') notOllama.set(settings.baseUrl, Date.now() + UNANSWERED_PAUSE_MS);
  return probe;
}

async function fromEndpoint(settings: ModelSettings, fetchImpl: typeof fetch): Promise<number | undefined> {
  const key = `${settings.baseUrl}\n${settings.model}`;
  let pending = discovered.get(key);
  if (!pending) {
    pending = (async () => {
      try {
        const headers = authorization(settings);
        const response = await fetchImpl(`${settings.baseUrl.replace(/\/+$/, '')}/models`, { headers, signal: AbortSignal.timeout(2000) });
        if (!response.ok) return undefined;
        const body = (await response.json()) as { data?: unknown };
        const entries = Array.isArray(body.data) ? body.data : [];
        const entry = entries.find((candidate) => (candidate as { id?: unknown } | null)?.id === settings.model);
        return windowFromModelEntry(entry);
      } catch {
        // No metadata is not an error: the table or the fallback decides.
        return undefined;
      }
    })();
    discovered.set(key, pending);
  }
  return pending;
}

/** What is known without asking the endpoint: the setting, the table, or the fallback. */
export function staticContextWindow(settings: ModelSettings): ContextWindow {
  if (settings.contextWindow && settings.contextWindow > 0) return { tokens: settings.contextWindow, source: 'setting' };
  const known = knownContextWindow(settings.model);
  if (known) return { tokens: known, source: 'table' };
  return { tokens: FALLBACK_CONTEXT_WINDOW, source: 'fallback' };
}

export async function resolveContextWindow(settings: ModelSettings, fetchImpl: typeof fetch = fetch): Promise<ContextWindow> {
  if (settings.contextWindow && settings.contextWindow > 0) return staticContextWindow(settings);
  // VS Code's models have no /models endpoint; the host fills in their window (maxInputTokens).
  if (settings.provider === 'vscode') return staticContextWindow(settings);
  const reported = await fromEndpoint(settings, fetchImpl);
  if (reported) return { tokens: reported, source: 'endpoint' };
  const running = await fromOllama(settings, fetchImpl);
  if (running.window) return { tokens: running.window, source: 'server' };
  return running.unloaded ? { ...staticContextWindow(settings), unloadedOnOllama: true } : staticContextWindow(settings);
}

/** For a model Ollama has not loaded: loads it, then asks again (the window it was loaded with, when it says). */
export async function loadedContextWindow(settings: ModelSettings, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<ContextWindow> {
  await loadOllamaModel(settings.baseUrl, settings.model, authorization(settings), fetchImpl, signal);
  const window = await resolveContextWindow(settings, fetchImpl);
  // Loaded or not, it is not loaded again for this run.
  const { unloadedOnOllama: _unloaded, ...rest } = window;
  return rest;
}
