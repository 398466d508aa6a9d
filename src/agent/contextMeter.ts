// The run's context meter: after each model call, how many tokens the
// request held against the model's window, as a `tandem.context` event. The
// endpoint's /models is asked in the background: the first request never
// waits on it, and until it answers the setting, the table or 32k stand in.
import type { ModelSettings, ModelTurn } from '../models/chatModel';
import { resolveContextWindow, staticContextWindow, type ContextWindow } from '../models/contextWindow';
import { CustomEventName, type ContextPayload, type ModelRole } from '../protocol/agentEvents';
import type { RunEmitter } from './runEmitter';
import type { UsageTracker } from './usageTracker';

export function attachContextMeter(
  usage: UsageTracker,
  emitter: RunEmitter,
  models: Readonly<Record<ModelRole, ModelSettings>>,
  resolve: (settings: ModelSettings) => Promise<ContextWindow> = resolveContextWindow,
): void {
  const windows: Record<ModelRole, ContextWindow> = {
    'function-call': staticContextWindow(models['function-call']),
    answer: staticContextWindow(models.answer),
  };
  for (const role of ['function-call', 'answer'] as const) {
    void resolve(models[role]).then((window) => (windows[role] = window), () => undefined);
  }
  usage.onCall = (role: ModelRole, turn: Pick<ModelTurn, 'usage'>) => {
    const tokens = turn.usage.promptTokens;
    if (tokens === undefined) return;
    const window = windows[role];
    emitter.custom(CustomEventName.context, {
      role,
      model: models[role].model,
      tokens,
      window: window.tokens,
      estimated: turn.usage.estimated,
      windowSource: window.source,
    } satisfies ContextPayload);
  };
}
