// Context chips above the prompt box for the MCP resources attached to the
// next message (`context-chip`, `data-path` = the resource's URI). Each has a
// remove button; the host adds their contents when the message is sent.
import type { FromWebview } from '../src/protocol/webviewMessages';

export interface ResourceChips {
  set(resources: readonly { readonly uri: string; readonly label: string; readonly server: string }[]): void;
}

export function attachResourceChips(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void): ResourceChips {
  const row = document.createElement('div');
  row.className = 'context-chips';
  row.setAttribute('aria-label', 'Attached to the next message');
  row.hidden = true;
  prompt.insertAdjacentElement('beforebegin', row);
  return {
    set: (resources) => {
      row.hidden = resources.length === 0;
      row.replaceChildren(
        ...resources.map((resource) => {
          const chip = document.createElement('span');
          chip.className = 'context-chip';
          chip.dataset['testid'] = 'context-chip';
          chip.dataset['path'] = resource.uri;
          chip.title = `${resource.uri} (MCP server "${resource.server}")`;
          chip.textContent = resource.label;
          const remove = document.createElement('button');
          remove.className = 'context-chip-remove';
          remove.type = 'button';
          remove.textContent = '×';
          remove.setAttribute('aria-label', `Remove ${resource.label}`);
          remove.addEventListener('click', () => post({ type: 'detachResource', uri: resource.uri }));
          chip.append(remove);
          return chip;
        }),
      );
    },
  };
}
