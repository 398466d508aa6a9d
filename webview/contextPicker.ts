// The prompt box's `@` picker: typing '@' (at the start or after a space)
// lists what can be attached — the selection, the problems, the open editors
// and the workspace's folders and files — filtered by the host as the user
// types. Up/Down move, Enter or Tab attach, Escape closes; the `@word` is
// removed from the text and the pick becomes a context chip.
import type { ContextSuggestion, FromWebview } from '../src/protocol/webviewMessages';
import { attachSuggestionList } from './suggestionList';

export interface ContextPicker {
  /** The host's answer to a search; ignored unless it is for what is typed now. */
  setSuggestions(query: string, suggestions: readonly ContextSuggestion[]): void;
}

/** The `@query` right before the caret, or undefined. Pure, exported for tests. */
export function mentionBeforeCaret(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/u.exec(text.slice(0, caret));
  if (match === null) return undefined;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

export function attachContextPicker(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void): ContextPicker {
  let mention: { start: number; query: string } | undefined;

  const list = attachSuggestionList<ContextSuggestion>(prompt, {
    id: 'tandem-context-picker',
    className: 'context-picker',
    testid: 'context-picker',
    ariaLabel: 'Attach to the message',
    // No icons: a folder's label ends with '/', and the special items carry a description.
    describe: (suggestion) => ({
      className: 'context-option',
      testid: 'context-option',
      data: { kind: suggestion.kind, path: suggestion.path },
      label: suggestion.label,
      labelClassName: 'context-option-label',
      ...(suggestion.detail ? { detail: suggestion.detail } : {}),
    }),
    onPick: (chosen) => {
      const picked = mention;
      mention = undefined;
      if (picked === undefined) return;
      // The `@word` was only the way to ask; the chip stands for it.
      const end = picked.start + 1 + picked.query.length;
      prompt.value = prompt.value.slice(0, picked.start) + prompt.value.slice(end);
      prompt.setSelectionRange(picked.start, picked.start);
      prompt.dispatchEvent(new Event('input', { bubbles: true }));
      post({ type: 'attachContext', kind: chosen.kind, path: chosen.path });
    },
  });

  const close = (): void => {
    mention = undefined;
    list.close();
  };

  const refresh = (): void => {
    const found = prompt.selectionStart === prompt.selectionEnd ? mentionBeforeCaret(prompt.value, prompt.selectionStart) : undefined;
    if (found === undefined || list.dismissed) {
      if (mention !== undefined) close();
      return;
    }
    if (mention?.query === found.query && mention.start === found.start) return;
    mention = found;
    post({ type: 'contextSearch', query: found.query });
  };

  prompt.addEventListener('input', refresh);
  prompt.addEventListener('click', refresh);
  prompt.addEventListener('blur', () => (mention = undefined));
  prompt.addEventListener('keydown', (event) => {
    // Moving the caret may leave or enter an `@word`.
    if (!list.isOpen && (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End')) queueMicrotask(refresh);
  });

  return {
    setSuggestions: (query, next) => {
      if (mention === undefined || mention.query !== query) return;
      list.show(next);
    },
  };
}
