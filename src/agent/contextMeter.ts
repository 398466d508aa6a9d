// The run's context meter: after each model call, how many tokens the
// request held against the model's window, as a `tandem.context` event; once
// condensing has shortened the conversation, the shorter request's local count
// at once (not the old figure until the next call ends). The
// endpoint's /models (and Ollama's /api/ps) is asked in the background, and
// until it answers the setting, the table or 32k stand in; a request waits for
// it only when its window is a guess and it is not small (contextBudget.ts).
// A request that fills most of the window Ollama runs the model with gets a
// warning: Ollama does not refuse what does not fit. A model Ollama has not
// loaded yet can be loaded first (`load`), for a request that might not fit
// the least window it gives.
import type { ModelSettings, ModelTurn } from '../models/chatModel';
import { loadedContextWindow, resolveContextWindow, staticContextWindow, type ContextWindow } from '../models/contextWindow';
import { CustomEventName, type ContextPayload, type ModelRole } from '../protocol/agentEvents';
import type { RunEmitter } from './runEmitter';
import type { UsageTracker } from './usageTracker';

/** The run's view of both models' windows: the best known now, and the settled one. */
export interface RunWindows {
  current(role: ModelRole): ContextWindow;
  /** Waits (bounded by the /models lookup's own timeout) for the endpoint's answer. */
  settled(role: ModelRole): Promise<ContextWindow>;
  /** For a model the server has not loaded (`unloadedOnOllama`): loads it and learns its window; once a run per model (both roles may share it). */
  load(role: ModelRole, signal: AbortSignal): Promise<ContextWindow>;
  /** Shows `tokens`, counted here (`estimated` as the count says), as `role`'s request: the conversation was just condensed, and the server has not counted it yet. */
  showLocalCount(role: ModelRole, tokens: number, estimated: boolean): void;
}

export function attachContextMeter(
  usage: UsageTracker,
  emitter: RunEmitter,
  models: Readonly<Record<ModelRole, ModelSettings>>,
  resolve: (settings: ModelSettings) => Promise<ContextWindow> = resolveContextWindow,
  loadAndResolve: (settings: ModelSettings, signal: AbortSignal) => Promise<ContextWindow> = loadedContextWindow,
): RunWindows {
  const windows: Record<ModelRole, ContextWindow> = {
    'function-call': staticContextWindow(models['function-call']),
    answer: staticContextWindow(models.answer),
  };
  const settled = {} as Record<ModelRole, Promise<ContextWindow>>;
  for (const role of ['function-call', 'answer'] as const) {
    settled[role] = resolve(models[role]).then(
      (window) => (windows[role] = window),
      () => windows[role],
    );
  }
  const show = (role: ModelRole, tokens: number, estimated: boolean, afterCondensing = false) =>
    emitter.custom(CustomEventName.context, {
      role,
      model: models[role].model,
      tokens,
      window: windows[role].tokens,
      estimated,
      windowSource: windows[role].source,
      ...(afterCondensing ? { afterCondensing } : {}),
    } satisfies ContextPayload);
  const loading = {} as Partial<Record<ModelRole, Promise<ContextWindow>>>;
  // Both roles on one model of one server: one load serves both.
  const loads = new Map<string, Promise<ContextWindow>>();
  const runWindows: RunWindows = {
    current: (role) => windows[role],
    settled: (role) => settled[role],
    load: (role, signal) => {
      if (loading[role]) return loading[role];
      const settings = models[role];
      const key = `${settings.baseUrl}\n${settings.model}`;
      const loaded = settled[role].then((known) => {
        if (!known.unloadedOnOllama) return known;
        let load = loads.get(key);
        if (!load) loads.set(key, (load = loadAndResolve(settings, signal)));
        return load.then((found) => (windows[role] = found), () => known);
      });
      settled[role] = loading[role] = loaded;
      return loaded;
    },
    showLocalCount: (role, tokens, estimated) => show(role, tokens, estimated, true),
  };
  const warned = new Set<ModelRole>();
  const askedAgain = new Set<ModelRole>();
  usage.onCall = (role: ModelRole, turn: Pick<ModelTurn, 'usage'>) => {
    const window = windows[role];
    if ((window.source === 'table' || window.source === 'fallback') && !askedAgain.has(role)) {
      // Ollama lists a model only once a request has loaded it: this call may have; the run's later requests use what it says.
      askedAgain.add(role);
      settled[role] = resolve(models[role]).then(
        (found) => (windows[role] = found),
        () => windows[role],
      );
    }
    const tokens = turn.usage.promptTokens;
    if (tokens === undefined) return;
    show(role, tokens, turn.usage.estimated);
    if (window.source === 'server' && tokens >= window.tokens * FILLED_SHARE && !warned.has(role)) {
      // Ollama answers a request that does not fit without an error, having left out its oldest messages.
      warned.add(role);
      emitter.notice('contextFilled', 'warning', ollamaFilledNotice(models[role].model, tokens, window.tokens));
    }
  };
  return runWindows;
}

/** From this share of the server's window on, the request may have been cut: Ollama leaves out whole messages. */
const FILLED_SHARE = 0.8;

function ollamaFilledNotice(model: string, tokens: number, window: number): string {
  return (
    `The request to ${model} used ${tokens} of the ${window} tokens Ollama runs it with. A request that does not fit is ` +
    'not refused: Ollama leaves out its oldest messages (your question first) and answers anyway. Give the model a larger ' +
    'window: start Ollama with OLLAMA_CONTEXT_LENGTH=65536 (ollama ps shows what a loaded model got).'
  );
}
