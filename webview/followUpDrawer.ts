// Messages queued while a run goes, above the prompt box (and its chips):
// each with Edit (back into the prompt box, its chips back above it) and
// Remove. They go one at a time as each run ends with an answer; when the
// host holds them (a run stopped or failed, a reload), the drawer says why
// and offers Send next. The host owns the queue (followUpQueue.ts); this only
// shows it and asks.
import type { FromWebview, QueuedFollowUp } from '../src/protocol/webviewMessages';
import { button } from './components';
import { iconButton } from './element';
import { pencilIcon } from './stepView';

export interface FollowUpDrawer {
  set(items: readonly QueuedFollowUp[], held: string | undefined): void;
}

export function attachFollowUpDrawer(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void, edit: (text: string) => void): FollowUpDrawer {
  const drawer = document.createElement('div');
  drawer.className = 'follow-ups';
  drawer.dataset['testid'] = 'follow-ups';
  drawer.setAttribute('role', 'region');
  drawer.setAttribute('aria-label', 'Queued messages');
  drawer.hidden = true;
  const head = document.createElement('div');
  head.className = 'follow-ups-head';
  const status = document.createElement('span');
  status.className = 'muted';
  status.dataset['testid'] = 'follow-ups-status';
  status.setAttribute('role', 'status');
  const sendNext = button({
    label: 'Send next',
    testId: 'follow-up-send-next',
    title: 'Send the first queued message now (the rest follow, one per answered run)',
    onClick: () => post({ type: 'followUp', action: 'sendNext' }),
  });
  head.append(status, sendNext);
  const list = document.createElement('ol');
  list.className = 'follow-ups-list';
  drawer.append(head, list);
  // Above the context chips, which sit right above the prompt box.
  (prompt.previousElementSibling?.classList.contains('context-chips') ? prompt.previousElementSibling : prompt).insertAdjacentElement('beforebegin', drawer);

  return {
    set(items, held) {
      // A row whose button had focus is gone after this: focus goes to the prompt box rather than out of the panel.
      const hadFocus = drawer.contains(document.activeElement);
      drawer.hidden = items.length === 0;
      drawer.dataset['held'] = String(held !== undefined);
      status.textContent = held ?? (items.length === 1 ? 'Queued: sent when this run ends with an answer.' : `${items.length} queued: sent one by one as each run ends with an answer.`);
      sendNext.hidden = held === undefined;
      list.replaceChildren(...items.map((item) => row(item, post, edit)));
      if (hadFocus && !drawer.contains(document.activeElement)) prompt.focus();
    },
  };
}

function row(item: QueuedFollowUp, post: (message: FromWebview) => void, edit: (text: string) => void): HTMLLIElement {
  const entry = document.createElement('li');
  entry.className = 'follow-up';
  entry.dataset['testid'] = 'queued-message';
  entry.dataset['id'] = item.id;
  const text = document.createElement('span');
  text.className = 'follow-up-text';
  text.dataset['testid'] = 'queued-text';
  text.textContent = item.text;
  text.title = item.text;
  entry.append(text);
  if (item.labels.length > 0) {
    const attached = document.createElement('span');
    attached.className = 'follow-up-attached muted';
    attached.textContent = `+ ${item.labels.join(', ')}`;
    entry.append(attached);
  }
  const editButton = iconButton('queued-edit', 'Edit queued message', 'Edit: take it out of the queue and back into the prompt box', pencilIcon(), () => {
    post({ type: 'followUp', action: 'edit', id: item.id });
    edit(item.text);
  });
  const remove = iconButton('queued-remove', 'Remove queued message', 'Remove from the queue', '×', () => post({ type: 'followUp', action: 'remove', id: item.id }));
  remove.classList.add('follow-up-remove');
  entry.append(editButton, remove);
  return entry;
}

