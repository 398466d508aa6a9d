// Whether Retry is offered, and for which run: the last question's, once its
// run has ended, unless the conversation was condensed on request since (as
// the host decides it, src/protocol/retryTarget.ts, from the stored events).
import type { ConversationView } from './steps';

export function retryOffer(view: Pick<ConversationView, 'steps' | 'running'>): string | undefined {
  if (view.running) return undefined;
  for (let index = view.steps.length - 1; index >= 0; index--) {
    const step = view.steps[index]!;
    if (step.kind === 'condensed' && step.reason === 'manual') return undefined;
    if (step.kind === 'user') return step.setAside ? undefined : step.asks;
  }
  return undefined;
}
