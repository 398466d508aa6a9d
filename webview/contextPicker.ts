// The prompt box's `@` picker: typing '@' (at the start or after a space)
// lists what can be attached — the selection, the problems, the open editors
// and the workspace's folders and files — filtered by the host as the user
// types. Up/Down move, Enter or Tab attach, Escape closes; the `@word` is
// removed from the text and the pick becomes a context chip.
import type { ContextSuggestion, FromWebview } from '../src/protocol/webviewMessages';

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
  const list = document.createElement('div');
  list.className = 'context-picker';
  list.dataset['testid'] = 'context-picker';
  list.id = 'tandem-context-picker';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Attach to the message');
  list.hidden = true;
  prompt.insertAdjacentElement('beforebegin', list);

  let mention: { start: number; query: string } | undefined;
  let suggestions: readonly ContextSuggestion[] = [];
  let active = 0;
  /** Escape closes the list until the text changes. */
  let dismissedAt: string | undefined;

  const close = (): void => {
    mention = undefined;
    suggestions = [];
    list.hidden = true;
    list.replaceChildren();
    prompt.removeAttribute('aria-activedescendant');
    prompt.setAttribute('aria-expanded', 'false');
  };

  const render = (): void => {
    list.hidden = suggestions.length === 0;
    prompt.setAttribute('aria-expanded', String(!list.hidden));
    list.replaceChildren(
      ...suggestions.map((suggestion, index) => {
        const option = document.createElement('div');
        option.className = 'context-option';
        option.id = `tandem-context-option-${index}`;
        option.dataset['testid'] = 'context-option';
        option.dataset['kind'] = suggestion.kind;
        option.dataset['path'] = suggestion.path;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(index === active));
        // No icons: a folder's label ends with '/', and the special items carry a description.
        const label = document.createElement('span');
        label.className = 'context-option-label';
        label.textContent = suggestion.label;
        option.append(label);
        if (suggestion.detail) {
          const detail = document.createElement('span');
          detail.className = 'muted';
          detail.textContent = ` ${suggestion.detail}`;
          option.append(detail);
        }
        option.addEventListener('mousedown', (event) => event.preventDefault()); // keep the caret in the box
        option.addEventListener('click', () => pick(index));
        return option;
      }),
    );
    if (!list.hidden) {
      prompt.setAttribute('aria-activedescendant', `tandem-context-option-${active}`);
      list.children[active]?.scrollIntoView({ block: 'nearest' });
    }
  };

  const pick = (index: number): void => {
    const chosen = suggestions[index];
    if (chosen === undefined || mention === undefined) return;
    // The `@word` was only the way to ask; the chip stands for it.
    const end = mention.start + 1 + mention.query.length;
    prompt.value = prompt.value.slice(0, mention.start) + prompt.value.slice(end);
    prompt.setSelectionRange(mention.start, mention.start);
    prompt.dispatchEvent(new Event('input', { bubbles: true }));
    post({ type: 'attachContext', kind: chosen.kind, path: chosen.path });
    close();
    prompt.focus();
  };

  const refresh = (): void => {
    const found = prompt.selectionStart === prompt.selectionEnd ? mentionBeforeCaret(prompt.value, prompt.selectionStart) : undefined;
    if (found === undefined || dismissedAt === prompt.value) {
      if (mention !== undefined) close();
      return;
    }
    dismissedAt = undefined;
    if (mention?.query === found.query && mention.start === found.start) return;
    mention = found;
    post({ type: 'contextSearch', query: found.query });
  };

  prompt.setAttribute('aria-controls', list.id);
  prompt.setAttribute('aria-autocomplete', 'list');
  prompt.addEventListener('input', refresh);
  prompt.addEventListener('click', refresh);
  prompt.addEventListener('blur', close);
  // Capture: these keys belong to the list while it is open, before the box's own Enter-sends handler.
  prompt.addEventListener(
    'keydown',
    (event) => {
      if (list.hidden || event.isComposing) {
        if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') queueMicrotask(refresh);
        return;
      }
      const handled = (): void => {
        event.preventDefault();
        event.stopImmediatePropagation();
      };
      switch (event.key) {
        case 'ArrowDown':
          handled();
          active = (active + 1) % suggestions.length;
          render();
          return;
        case 'ArrowUp':
          handled();
          active = (active - 1 + suggestions.length) % suggestions.length;
          render();
          return;
        case 'Enter':
        case 'Tab':
          if (event.shiftKey) return;
          handled();
          pick(active);
          return;
        case 'Escape':
          handled();
          dismissedAt = prompt.value;
          close();
          return;
      }
    },
    { capture: true },
  );

  return {
    setSuggestions: (query, next) => {
      if (mention === undefined || mention.query !== query) return;
      suggestions = next;
      active = 0;
      render();
    },
  };
}
