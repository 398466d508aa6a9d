// The approval card in the step list: what the tool wants to do (its full
// arguments, or for an edit a summary and "Open diff"), and Approve, Reject
// and "Always allow …" (not for sensitive paths or deletes), with a line to
// tell the model why when rejecting. The card answers by the request's id;
// the decision event then updates it.
//
// Keyboard: Approve and "Always allow" are one toolbar, a single Tab stop that
// Tab always enters on Approve (the arrow keys reach "Always allow"); Reject
// is a Tab stop of its own after it, then the note. So Shift+Tab back from
// the prompt box meets the note, then Reject, then Approve: Tab never lands
// on the lasting choice, and the first button met going back is the safe one.
import { MAX_REJECTION_NOTE_CHARS, type ApprovalAnswer } from '../src/protocol/agentEvents';
import { button, setDisabled, type ButtonElement } from './components';
import { rovingFocus } from './rovingFocus';
import type { ApprovalStep } from './steps';
import { element } from './element';

export interface ApprovalCardHooks {
  /** `note`: with a rejection, what the user tells the model. */
  readonly onApproval?: ((id: string, answer: ApprovalAnswer, note?: string) => void) | undefined;
  readonly onOpenDiff?: ((id: string) => void) | undefined;
}

const STATUS_TEXT: Record<ApprovalStep['status'], string> = {
  pending: 'Waiting for your approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Not answered (the run ended)',
};

function prettyArgs(args: unknown): string {
  try {
    return JSON.stringify(args, null, 2) ?? '';
  } catch {
    return String(args);
  }
}

export function createApprovalCard(step: ApprovalStep, hooks: ApprovalCardHooks): HTMLElement {
  const article = element('article', 'step step-approval');
  article.dataset['testid'] = 'approval';
  article.dataset['stepId'] = step.id;
  // Focusable from script only: focus moves here once the card before it is answered.
  article.tabIndex = -1;
  updateApprovalCard(article, step, hooks);
  return article;
}

export function updateApprovalCard(article: HTMLElement, step: ApprovalStep, hooks: ApprovalCardHooks): void {
  article.dataset['tool'] = step.tool;
  article.dataset['approvalId'] = step.approvalId;
  article.dataset['status'] = step.status;
  article.dataset['sensitive'] = String(step.sensitive);
  article.setAttribute('role', 'group');
  article.setAttribute('aria-label', `Approval for ${step.tool}`);

  const head = element('div', 'approval-head');
  head.append(element('span', 'approval-tool', step.tool));
  const status = element('span', `approval-status status-${step.status}`, step.alwaysAllowed ? 'Approved (always allowed from now on)' : STATUS_TEXT[step.status]);
  status.dataset['testid'] = 'approval-status';
  if (step.status === 'pending') status.setAttribute('aria-live', 'polite');
  head.append(status);

  const body = element('div', 'approval-body');
  const summary = element('div', 'approval-summary', step.summary);
  summary.dataset['testid'] = 'approval-summary';
  body.append(summary);
  if (step.sensitive) {
    body.append(element('div', 'approval-warning', 'Sensitive path: changes here can run code or redirect your tools, so Tandem always asks.'));
  }
  if (step.requestKind === 'toolCall') {
    const args = element('pre', 'code approval-args', prettyArgs(step.args));
    args.dataset['testid'] = 'approval-args';
    body.append(args);
  }

  if (step.status === 'rejected' && step.note) {
    const note = element('div', 'approval-note', `You told the model: ${step.note}`);
    note.dataset['testid'] = 'approval-note';
    body.append(note);
  }

  const nodes: HTMLElement[] = [head, body];
  if (step.status === 'pending') {
    const actions = element('div', 'approval-actions');
    const buttons: ButtonElement[] = [];
    const noteBox = element('input', 'approval-note-input');
    noteBox.type = 'text';
    noteBox.dataset['testid'] = 'reject-note';
    noteBox.maxLength = MAX_REJECTION_NOTE_CHARS;
    noteBox.placeholder = 'Reason (optional)';
    noteBox.title = 'The model reads it with the rejection. Enter rejects.';
    noteBox.setAttribute('aria-label', `Note for the model if you reject ${step.tool}`);
    noteBox.value = step.note;
    const answer = (choice: ApprovalAnswer) => {
      if (step.answering) return;
      step.answering = true;
      for (const each of buttons) setDisabled(each, true);
      noteBox.disabled = true;
      const note = step.note.trim();
      hooks.onApproval?.(step.approvalId, choice, choice === 'rejected' && note ? note : undefined);
    };
    noteBox.addEventListener('input', () => {
      step.note = noteBox.value;
    });
    // Enter sends the note with Reject: typing a reason is deciding to reject.
    noteBox.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing || step.note.trim() === '') return;
      event.preventDefault();
      answer('rejected');
    });
    if (step.requestKind === 'edit' && hooks.onOpenDiff) {
      const openDiff = hooks.onOpenDiff;
      actions.append(button({ label: 'Open diff', testId: 'open-diff', onClick: () => openDiff(step.approvalId) }));
    }
    const approve = button({ label: 'Approve', testId: 'approve', appearance: 'primary', onClick: () => answer('approved') });
    const reject = button({ label: 'Reject', testId: 'reject', onClick: () => answer('rejected') });
    buttons.push(approve);
    if (step.alwaysAllowKey !== undefined && !step.sensitive) {
      const always = button({
        label: step.alwaysAllowLabel ?? `Always allow ${step.tool}`,
        testId: 'approve-always',
        title: `Adds "${step.alwaysAllowKey}" to tandem.tools.alwaysAllow in your user settings`,
        onClick: () => answer('alwaysAllowed'),
      });
      buttons.push(always);
      // Approve and the lasting "Always allow" are one Tab stop; Tab always comes back to Approve.
      const approving = element('div', 'approval-decisions');
      approving.setAttribute('role', 'toolbar');
      approving.setAttribute('aria-label', `Approve ${step.tool} once or always`);
      approving.append(approve, always);
      rovingFocus(approving, [approve, always], { returnToFirst: true });
      actions.append(approving);
    } else {
      actions.append(approve);
    }
    // Its own Tab stop, on one line with the note: Shift+Tab back from the prompt box meets the note, then Reject.
    buttons.push(reject);
    const rejecting = element('div', 'approval-rejecting');
    rejecting.append(reject, noteBox);
    actions.append(rejecting);
    if (step.answering) {
      for (const each of buttons) setDisabled(each, true);
      noteBox.disabled = true;
    }
    nodes.push(actions);
  }
  article.replaceChildren(...nodes);
}
