// The queued messages' drawer on happy-dom's DOM: Steer is offered on a
// queued message only while the run's tools go, never on a slash command or
// one already steered (which says so instead); the status line says what
// happens next; each button asks the host for its action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import type { FromWebview, QueuedFollowUp } from '../../../src/protocol/webviewMessages';
import type { attachFollowUpDrawer as AttachFollowUpDrawer } from '../../../webview/followUpDrawer';

let dom: DomGlobals;
let attachFollowUpDrawer: typeof AttachFollowUpDrawer;

before(async () => {
  dom = installDomGlobals();
  ({ attachFollowUpDrawer } = await import('../../../webview/followUpDrawer'));
});
after(async () => {
  await dom.restore();
});

function drawer() {
  const prompt = document.createElement('textarea');
  document.body.replaceChildren(prompt);
  const posted: FromWebview[] = [];
  const view = attachFollowUpDrawer(prompt, (message) => posted.push(message), () => undefined);
  const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="queued-message"]')];
  const status = () => document.querySelector('[data-testid="follow-ups-status"]')?.textContent ?? '';
  return { view, posted, rows, status };
}

const item = (id: string, text: string, steering?: boolean): QueuedFollowUp => ({ id, text, labels: [], ...(steering !== undefined && { steering }) });

describe('queued messages drawer', () => {
  it('offers Steer only while the run can take a message, and not for a slash command', () => {
    const { view, posted, rows, status } = drawer();
    const items = [item('a', 'Also check the tests.'), item('b', '/github.review 12')];
    view.set(items, undefined, false);
    assert.equal(document.querySelectorAll('[data-testid="queued-steer"]').length, 0, 'no Steer while the run answers (or prepares)');
    assert.equal(status(), '2 queued: sent one by one as each run ends with an answer.');

    view.set(items, undefined, true);
    const [first, second] = rows();
    assert.ok(first?.querySelector('[data-testid="queued-steer"]'));
    assert.equal(second?.querySelector('[data-testid="queued-steer"]'), null, 'a slash command waits for the run to end');
    assert.match(status(), /Steer sends one into this run now\.$/);
    (first!.querySelector('[data-testid="queued-steer"]') as HTMLButtonElement).click();
    assert.deepEqual(posted, [{ type: 'followUp', action: 'steer', id: 'a' }]);
  });

  it('shows a steered message as such, without Steer, and says so when every queued one is steered', () => {
    const { view, rows, status } = drawer();
    view.set([item('a', 'Also check the tests.', true)], undefined, true);
    const [row] = rows();
    assert.equal(row?.dataset['steering'], 'true');
    assert.equal(row?.querySelector('[data-testid="queued-steering"]')?.textContent, 'steered');
    assert.equal(row?.querySelector('[data-testid="queued-steer"]'), null);
    assert.equal(status(), 'Sent into this run: the agent reads it before its next step.');
    // A held queue says why, whatever else.
    view.set([item('a', 'x')], 'The run was stopped, so the next message waits for you.', false);
    assert.equal(status(), 'The run was stopped, so the next message waits for you.');
  });
});
