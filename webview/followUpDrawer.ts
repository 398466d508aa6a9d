// Messages queued while a run goes, above the prompt box (and its chips):
// each with Edit (back into the prompt box, its chips back above it) and
// Remove, and while the run's tools go, Steer (into this run, read before
// its next step, instead of after its answer). They go one at a time as each run ends with an answer; when the
// host holds them (a run stopped or failed, a reload), the drawer says why
// and offers Send next. The host owns the queue (followUpQueue.ts); this only
// shows it and asks.
import type { FromWebview, QueuedFollowUp } from '../src/protocol/webviewMessages';
import { button } from './components';
import { iconButton } from './element';
import { pencilIcon } from './stepView';

export interface FollowUpDrawer {
  set(items: readonly QueuedFollowUp[], held: string | undefined, canSteer: boolean): void;
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
    set(items, held, canSteer) {
      // A row whose button had focus is gone after this: focus goes to the prompt box rather than out of the panel.
      const hadFocus = drawer.contains(document.activeElement);
      drawer.hidden = items.length === 0;
      drawer.dataset['held'] = String(held !== undefined);
      status.textContent = held ?? queueStatus(items, canSteer);
      sendNext.hidden = held === undefined;
      list.replaceChildren(...items.map((item) => row(item, post, edit, canSteer)));
      if (hadFocus && !drawer.contains(document.activeElement)) prompt.focus();
    },
  };
}

function queueStatus(items: readonly QueuedFollowUp[], canSteer: boolean): string {
  if (items.every((item) => item.steering)) return 'Sent into this run: the agent reads it before its next step.';
  const queued = items.length === 1 ? 'Queued: sent when this run ends with an answer.' : `${items.length} queued: sent one by one as each run ends with an answer.`;
  return canSteer && items.some((item) => steerable(item)) ? `${queued} Steer sends one into this run now.` : queued;
}

/** A slash command waits for the run to end: its arguments are asked when it goes. */
function steerable(item: QueuedFollowUp): boolean {
  return !item.steering && !item.text.trimStart().startsWith('/');
}

function row(item: QueuedFollowUp, post: (message: FromWebview) => void, edit: (text: string) => void, canSteer: boolean): HTMLLIElement {
  const entry = document.createElement('li');
  entry.className = 'follow-up';
  entry.dataset['testid'] = 'queued-message';
  entry.dataset['id'] = item.id;
  entry.dataset['steering'] = String(item.steering === true);
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
  if (item.steering) {
    const waiting = document.createElement('span');
    waiting.className = 'follow-up-steering muted';
    waiting.dataset['testid'] = 'queued-steering';
    waiting.textContent = 'steered';
    waiting.title = 'Sent into this run: the agent reads it before its next step. If the run answers first, it goes after the answer.';
    entry.append(waiting);
  } else if (canSteer && steerable(item)) {
    const steer = iconButton('queued-steer', 'Steer: send into this run', 'Steer: send it into this run now; the agent reads it before its next step instead of after its answer', 'Steer', () =>
      post({ type: 'followUp', action: 'steer', id: item.id }),
    );
    steer.classList.add('follow-up-steer');
    entry.append(steer);
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

