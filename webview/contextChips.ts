// Context chips above the prompt box: what is attached to the next message
// (files, folders, the selection, problems, open editors, MCP resources), as
// `context-chip` with `data-path`. Each has a remove button; an item that
// cannot be attached says why (`data-error`). The host adds their contents
// when the message is sent.
import type { ContextChip, FromWebview } from '../src/protocol/webviewMessages';

export interface ContextChips {
  set(chips: readonly ContextChip[]): void;
}

export function attachContextChips(
  prompt: HTMLTextAreaElement,
  post: (message: FromWebview) => void,
  /** A pasted image's picture, by its chip's path (imagePaste.ts). */
  thumbnail: (chipPath: string) => string | undefined = () => undefined,
): ContextChips {
  const row = document.createElement('div');
  row.className = 'context-chips';
  row.setAttribute('aria-label', 'Attached to the next message');
  row.hidden = true;
  prompt.insertAdjacentElement('beforebegin', row);
  return {
    set: (chips) => {
      // The chip whose × had focus is gone after this: focus moves to the chip now in its place, or the prompt box.
      const removes = [...row.querySelectorAll('.context-chip-remove')];
      const focusedAt = removes.indexOf(document.activeElement as Element);
      row.hidden = chips.length === 0;
      row.replaceChildren(
        ...chips.map((item) => {
          const chip = document.createElement('span');
          chip.className = item.error === undefined ? 'context-chip' : 'context-chip context-chip-error';
          chip.dataset['testid'] = 'context-chip';
          chip.dataset['path'] = item.path;
          if (item.error !== undefined) chip.dataset['error'] = item.error;
          chip.title = item.error === undefined ? item.title : `Not attached: ${item.error}`;
          const picture = item.error === undefined ? thumbnail(item.path) : undefined;
          if (picture !== undefined) {
            const image = document.createElement('img');
            image.className = 'context-chip-thumbnail';
            image.src = picture;
            image.alt = '';
            chip.append(image);
          }
          chip.append(item.label);
          const remove = document.createElement('button');
          remove.className = 'context-chip-remove';
          remove.type = 'button';
          remove.textContent = '×';
          remove.dataset['testid'] = 'context-chip-remove';
          remove.setAttribute('aria-label', `Remove ${item.label}`);
          remove.addEventListener('click', () => post({ type: 'detachContext', path: item.path }));
          chip.append(remove);
          return chip;
        }),
      );
      if (focusedAt >= 0) {
        const next = row.querySelectorAll<HTMLElement>('.context-chip-remove');
        (next[Math.min(focusedAt, next.length - 1)] ?? prompt).focus();
      }
    },
  };
}
