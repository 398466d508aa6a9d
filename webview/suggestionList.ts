// A list of suggestions above the prompt box (the `@` picker, the `/` prompts):
// a listbox the box controls, with one active option. While it is open,
// Up/Down move, Enter or Tab take the active option and Escape closes it
// until the text changes; these keys are caught before the box's own
// Enter-sends handler. A click takes an option without moving the caret.
// The box stays a textbox (a textarea may take no combobox role, so no
// aria-expanded either): it names the open list and its active option.

export interface SuggestionListOptions<T> {
  /** Element id; options get `${id}-<index>`. */
  readonly id: string;
  readonly className: string;
  readonly testid: string;
  readonly ariaLabel: string;
  /** How an item is shown. */
  readonly describe: (item: T) => SuggestionView;
  readonly onPick: (item: T) => void;
}

/** An option: its class, data-testid and other data attributes, its label and a muted detail after it. */
export interface SuggestionView {
  readonly className: string;
  readonly testid: string;
  readonly data: Readonly<Record<string, string>>;
  readonly label: string;
  readonly labelClassName: string;
  readonly detail?: string;
}

export interface SuggestionList<T> {
  /** Shows `items` with the first active; an empty list closes. */
  show(items: readonly T[]): void;
  close(): void;
  readonly isOpen: boolean;
  /** True from Escape until the prompt's text changes: the owner should not reopen. */
  readonly dismissed: boolean;
}

export function attachSuggestionList<T>(prompt: HTMLTextAreaElement, options: SuggestionListOptions<T>): SuggestionList<T> {
  const list = document.createElement('div');
  list.className = options.className;
  list.dataset['testid'] = options.testid;
  list.id = options.id;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', options.ariaLabel);
  list.hidden = true;
  prompt.insertAdjacentElement('beforebegin', list);

  let items: readonly T[] = [];
  let active = 0;
  let dismissedAt: string | undefined;

  const optionId = (index: number): string => `${options.id}-${index}`;

  const close = (): void => {
    items = [];
    list.hidden = true;
    list.replaceChildren();
    if (prompt.getAttribute('aria-controls') === list.id) {
      prompt.removeAttribute('aria-activedescendant');
      prompt.removeAttribute('aria-controls');
    }
  };

  const markActive = (): void => {
    for (const [index, option] of [...list.children].entries()) option.setAttribute('aria-selected', String(index === active));
    prompt.setAttribute('aria-activedescendant', optionId(active));
    list.children[active]?.scrollIntoView({ block: 'nearest' });
  };

  const pick = (index: number): void => {
    const chosen = items[index];
    if (chosen === undefined) return;
    close();
    options.onPick(chosen);
    prompt.focus();
  };

  const show = (next: readonly T[]): void => {
    if (next.length === 0) {
      close();
      return;
    }
    items = next;
    active = 0;
    list.hidden = false;
    // Two lists share the box: the open one is the one it controls.
    prompt.setAttribute('aria-controls', list.id);
    prompt.setAttribute('aria-autocomplete', 'list');
    list.replaceChildren(
      ...next.map((item, index) => {
        const view = options.describe(item);
        const option = document.createElement('div');
        option.id = optionId(index);
        option.className = view.className;
        option.setAttribute('role', 'option');
        Object.assign(option.dataset, view.data, { testid: view.testid });
        const label = document.createElement('span');
        label.className = view.labelClassName;
        label.textContent = view.label;
        option.append(label);
        if (view.detail) {
          const detail = document.createElement('span');
          detail.className = 'muted';
          detail.textContent = ` ${view.detail}`;
          option.append(detail);
        }
        option.addEventListener('mousedown', (event) => event.preventDefault()); // keep the caret in the box
        option.addEventListener('click', () => pick(index));
        return option;
      }),
    );
    markActive();
  };

  prompt.addEventListener('input', () => {
    if (dismissedAt !== prompt.value) dismissedAt = undefined;
  });
  prompt.addEventListener('blur', close);
  prompt.addEventListener(
    'keydown',
    (event) => {
      if (list.hidden || event.isComposing) return;
      const handled = (): void => {
        event.preventDefault();
        event.stopImmediatePropagation();
      };
      switch (event.key) {
        case 'ArrowDown':
          handled();
          active = (active + 1) % items.length;
          markActive();
          return;
        case 'ArrowUp':
          handled();
          active = (active - 1 + items.length) % items.length;
          markActive();
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
    show,
    close,
    get isOpen() {
      return !list.hidden;
    },
    get dismissed() {
      return dismissedAt !== undefined && dismissedAt === prompt.value;
    },
  };
}
