// The approval card's keyboard order on happy-dom's DOM: Approve and the
// lasting "Always allow" are one toolbar whose Tab stop is always Approve
// when Tab enters it; Reject is its own Tab stop after it, so Shift+Tab back
// from the prompt box meets the note, Reject, then Approve, never "Always
// allow" (the arrow keys reach it from Approve).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import type { AgentEvent, ApprovalPayload } from '../../../src/protocol/agentEvents';
import type { createApprovalCard as CreateApprovalCard } from '../../../webview/approvalCard';
import { createConversationView, type ApprovalStep } from '../../../webview/steps';
import { applyEvents } from '../../../webview/viewModel';

let dom: DomGlobals;
let createApprovalCard: typeof CreateApprovalCard;

before(async () => {
  dom = installDomGlobals();
  ({ createApprovalCard } = await import('../../../webview/approvalCard'));
});
after(async () => {
  await dom.restore();
});

/** A pending card from its `tandem.approval` event, in the step list with the prompt box after it, as in the panel. */
function panelWithCard(payload: Partial<ApprovalPayload>) {
  const event = { type: 'CUSTOM', name: 'tandem.approval', value: { id: 'a1', tool: 'write_file', kind: 'toolCall', args: { path: 'notes.txt' }, summary: 'Create notes.txt', sensitive: false, status: 'pending', ...payload } } as AgentEvent;
  const step = applyEvents(createConversationView(), [event]).steps.find((candidate): candidate is ApprovalStep => candidate.kind === 'approval');
  assert.ok(step);
  const answers: string[] = [];
  const card = createApprovalCard(step, { onApproval: (_id, answer) => answers.push(answer), onOpenDiff: () => undefined });
  const prompt = document.createElement('textarea');
  prompt.dataset['testid'] = 'prompt';
  document.body.replaceChildren(card, prompt);
  return { card, prompt, answers };
}

/**
 * The Tab sequence, as a browser builds it here: every control in document
 * order (all tabindex 0 or unset), less those taken out with tabindex -1 and
 * disabled ones. The toolkit's buttons are focusable by default (happy-dom
 * does not know them, so an unset tabindex counts as 0).
 */
function tabSequence(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('vscode-button, input, textarea, button, [tabindex]')].filter(
    (node) => !node.hasAttribute('disabled') && Number(node.getAttribute('tabindex') ?? '0') >= 0,
  );
}

const name = (node: Element | null | undefined) => (node as HTMLElement | null | undefined)?.dataset['testid'];

/** Shift+Tab from `from`, `times` times: the controls met, nearest first. */
function shiftTabFrom(from: HTMLElement, times: number): (string | undefined)[] {
  const sequence = tabSequence();
  const at = sequence.indexOf(from);
  return sequence.slice(Math.max(0, at - times), at).reverse().map(name);
}

function press(key: string): void {
  document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

describe('approval card: keyboard order', () => {
  it('the decisions show Approve, Always allow, Reject; Approve and Always allow are one Tab stop, Reject its own', () => {
    const { card } = panelWithCard({ alwaysAllowKey: 'write_file' });
    assert.deepEqual([...card.querySelectorAll('[data-testid]')].map(name), ['approval-status', 'approval-summary', 'approval-args', 'approve', 'approve-always', 'reject', 'reject-note']);
    const toolbar = card.querySelector('[role="toolbar"]');
    assert.equal(toolbar?.getAttribute('aria-label'), 'Approve write_file once or always');
    assert.deepEqual([...toolbar!.children].map(name), ['approve', 'approve-always']);
    assert.deepEqual(tabSequence().map(name), ['approve', 'reject', 'reject-note', 'prompt']);
  });

  it('Shift+Tab from the prompt box meets the note, then Reject, then Approve; "Always allow" is not a Tab stop from either side', () => {
    const { prompt } = panelWithCard({ alwaysAllowKey: 'write_file' });
    assert.deepEqual(shiftTabFrom(prompt, 3), ['reject-note', 'reject', 'approve']);
    assert.ok(!tabSequence().map(name).includes('approve-always'));
  });

  it('the arrow keys go between Approve and Always allow; leaving the toolbar puts its Tab stop back on Approve', () => {
    const { card, prompt, answers } = panelWithCard({ alwaysAllowKey: 'write_file' });
    card.querySelector<HTMLElement>('[data-testid="approve"]')!.focus();
    const met = [name(document.activeElement)];
    for (let index = 0; index < 2; index++) {
      press('ArrowRight');
      met.push(name(document.activeElement));
    }
    assert.deepEqual(met, ['approve', 'approve-always', 'approve'], 'round and back');
    press('End');
    assert.equal(name(document.activeElement), 'approve-always');
    press('Home');
    assert.equal(name(document.activeElement), 'approve');
    press('End');
    prompt.focus();
    assert.deepEqual(shiftTabFrom(prompt, 3), ['reject-note', 'reject', 'approve'], 'back on Approve, not on the lasting choice');
    assert.deepEqual(answers, [], 'moving decides nothing');
  });

  it('an edit: "Open diff" comes first; a sensitive path offers no "Always allow" and no toolbar', () => {
    const { card, prompt } = panelWithCard({ kind: 'edit', sensitive: true, alwaysAllowKey: 'write_file' });
    assert.equal(card.querySelector('[data-testid="approve-always"]'), null);
    assert.equal(card.querySelector('[role="toolbar"]'), null);
    assert.deepEqual(tabSequence().map(name), ['open-diff', 'approve', 'reject', 'reject-note', 'prompt']);
    assert.deepEqual(shiftTabFrom(prompt, 4), ['reject-note', 'reject', 'approve', 'open-diff']);
  });
});
