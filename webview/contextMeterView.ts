// The context meter beside the Send button: "N / M tokens" of the last
// request, coloured as the window fills; the tooltip says which model, how
// the count was made and where the window size came from.
import type { ContextPayload } from '../src/protocol/agentEvents';

const SOURCE: Record<ContextPayload['windowSource'], string> = {
  setting: 'your contextWindow setting',
  endpoint: "the endpoint's /models",
  server: 'what the server runs the model with (Ollama: ollama ps)',
  table: "Tandem's table of known models",
  fallback: 'a default of 32768 (set contextWindow for this model)',
};

export function createContextMeter(): { element: HTMLElement; set(context: ContextPayload | undefined): void } {
  const element = document.createElement('span');
  element.className = 'muted context-meter';
  element.dataset['testid'] = 'context-meter';
  element.hidden = true;
  // A meter a keyboard can reach, whose value text is the tooltip's detail:
  // a title alone is for the mouse only.
  element.setAttribute('role', 'meter');
  element.setAttribute('aria-label', 'Context window');
  element.setAttribute('aria-valuemin', '0');
  element.tabIndex = 0;
  return {
    element,
    set(context) {
      element.hidden = !context;
      if (!context) return;
      const share = context.window > 0 ? context.tokens / context.window : 0;
      element.textContent = `${context.tokens} / ${context.window} tokens`;
      element.dataset['level'] = share >= 0.9 ? 'high' : share >= 0.7 ? 'medium' : 'low';
      // A window Tandem only assumed is marked as such beside the figures (drawn, not text: the text stays "N / M tokens").
      element.dataset['windowSource'] = context.windowSource;
      element.setAttribute('aria-valuemax', String(Math.max(context.window, context.tokens)));
      element.setAttribute('aria-valuenow', String(context.tokens));
      const which = context.afterCondensing ? 'Next request, after condensing,' : 'Last request';
      element.title =
        `${which} to ${context.model} (${context.role}): ${context.tokens} of ${context.window} tokens (${Math.round(share * 100)}%)` +
        `${context.estimated ? ', estimated locally' : ", the server's count"}; window from ${SOURCE[context.windowSource]}.`;
      element.setAttribute('aria-valuetext', element.title);
    },
  };
}
