// The approval card's keyboard order on happy-dom's DOM: the decisions are
// one toolbar whose Tab stop is Approve, so Tab into the card and Shift+Tab
// back from the prompt box both meet Approve, never the lasting "Always
// allow"; the arrow keys go Approve → Reject → Always allow, in the order
// shown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Window } from 'happy-dom';
import type { AgentEvent, ApprovalPayload } from '../../../src/protocol/agentEvents';
import type { createApprovalCard as CreateApprovalCard } from '../../../webview/approvalCard';
import { createConversationView, type ApprovalStep } from '../../../webview/steps';
import { applyEvents } from '../../../webview/viewModel';

const browser = new Window({ url: 'https://panel.invalid/' });
const saved = new Map<string, PropertyDescriptor | undefined>();
let createApprovalCard: typeof CreateApprovalCard;

before(async () => {
  // The browser's globals, as the webview has them (the toolkit's components read some as they load); Node's own stay.
  const names = Object.getOwnPropertyNames(browser).filter((name) => !(name in globalThis));
  for (const name of [...names, 'window', 'document', 'Event', 'EventTarget', 'KeyboardEvent']) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    Object.defineProperty(globalThis, name, { value: name === 'window' ? browser : (browser as unknown as Record<string, unknown>)[name], configurable: true, writable: true });
  }
  ({ createApprovalCard } = await import('../../../webview/approvalCard'));
});
after(async () => {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  }
  await browser.happyDOM.close();
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
  it('the decisions show Approve, Reject, Always allow, and are one Tab stop on Approve', () => {
    const { card } = panelWithCard({ alwaysAllowKey: 'write_file' });
    assert.deepEqual([...card.querySelectorAll('[data-testid]')].map(name), ['approval-status', 'approval-summary', 'approval-args', 'approve', 'reject', 'approve-always', 'reject-note']);
    const toolbar = card.querySelector('[role="toolbar"]');
    assert.equal(toolbar?.getAttribute('aria-label'), 'Decide on write_file');
    assert.deepEqual([...toolbar!.children].map(name), ['approve', 'reject', 'approve-always']);
    assert.deepEqual(tabSequence().map(name), ['approve', 'reject-note', 'prompt']);
  });

  it('Shift+Tab from the prompt box meets the note, then Approve; "Always allow" is not a Tab stop from either side', () => {
    const { prompt } = panelWithCard({ alwaysAllowKey: 'write_file' });
    assert.deepEqual(shiftTabFrom(prompt, 2), ['reject-note', 'approve']);
    assert.ok(!tabSequence().map(name).includes('approve-always'));
  });

  it('the arrow keys go Approve → Reject → Always allow, and the Tab stop follows', () => {
    const { card, prompt, answers } = panelWithCard({ alwaysAllowKey: 'write_file' });
    card.querySelector<HTMLElement>('[data-testid="approve"]')!.focus();
    const met = [name(document.activeElement)];
    for (let index = 0; index < 3; index++) {
      press('ArrowRight');
      met.push(name(document.activeElement));
    }
    assert.deepEqual(met, ['approve', 'reject', 'approve-always', 'approve'], 'round and back');
    press('End');
    assert.equal(name(document.activeElement), 'approve-always');
    assert.deepEqual(shiftTabFrom(prompt, 2), ['reject-note', 'approve-always'], 'Tab comes back to the decision last moved to');
    press('Home');
    assert.equal(name(document.activeElement), 'approve');
    assert.deepEqual(answers, [], 'moving decides nothing');
  });

  it('an edit: "Open diff" comes first; a sensitive path offers no "Always allow"', () => {
    const { card, prompt } = panelWithCard({ kind: 'edit', sensitive: true, alwaysAllowKey: 'write_file' });
    assert.equal(card.querySelector('[data-testid="approve-always"]'), null);
    assert.deepEqual(tabSequence().map(name), ['open-diff', 'approve', 'reject-note', 'prompt']);
    assert.deepEqual(shiftTabFrom(prompt, 3), ['reject-note', 'approve', 'open-diff']);
    card.querySelector<HTMLElement>('[data-testid="approve"]')!.focus();
    press('ArrowLeft');
    assert.equal(name(document.activeElement), 'reject', 'two decisions: wraps to Reject');
  });
});
