// The History filter in the panel's real layout code, on happy-dom's DOM:
// offered from 8 conversations on, it shows the rows whose title has every
// word typed; a filter that matches nothing says so instead of an empty
// frame; Escape empties it, then closes the list, and does nothing while an
// input method composes; after a delete (and its Undo) while filtering, the
// keyboard lands on a row that is shown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import type { ConversationSummary, FromWebview } from '../../../src/protocol/webviewMessages';
import type { buildLayout as BuildLayout } from '../../../webview/layout';

let dom: DomGlobals;
let buildLayout: typeof BuildLayout;

before(async () => {
  dom = installDomGlobals();
  ({ buildLayout } = await import('../../../webview/layout'));
});
after(async () => {
  await dom.restore();
});

const titles = [
  'Release plan for Tuesday',
  'Fix the login bug',
  'Release notes draft',
  'Why is CI slow',
  'Refactor the parser',
  'release checklist',
  'Explain the build',
  'Rename the module',
  'Plan the offsite',
];

function conversations(names: readonly string[] = titles): ConversationSummary[] {
  return names.map((title, index) => ({ id: `c${index}`, title, updatedAt: Date.now() - index * 60_000 }));
}

function panel(list: ConversationSummary[]) {
  document.body.replaceChildren();
  const root = document.createElement('div');
  document.body.append(root);
  const posted: FromWebview[] = [];
  const layout = buildLayout(root, { post: (message) => posted.push(message), isRunning: () => false, draft: '', saveDraft: () => undefined });
  layout.setHistory(list, undefined);
  const find = <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector);
  const filter = find<HTMLInputElement>('[data-testid="history-filter"]')!;
  const history = find('[data-testid="history"]')!;
  const noMatch = find('.history-no-match')!;
  const count = () => find('[data-testid="history-filter-count"]')!.textContent;
  const toggle = find('[data-testid="history-toggle"]')!;
  const shown = () => [...history.querySelectorAll<HTMLElement>('.history-item')].filter((item) => !item.hidden).map((item) => item.dataset['title']);
  const type = (text: string) => {
    filter.value = text;
    filter.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const press = (key: string, init: { isComposing?: boolean } = {}) => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    filter.dispatchEvent(event);
    return event;
  };
  const row = (title: string) => [...history.querySelectorAll<HTMLElement>('.history-item')].find((item) => item.dataset['title'] === title)!;
  const focusedTitle = () => (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.history-item')?.dataset['title'];
  return { layout, posted, filter, history, noMatch, count, toggle, shown, type, press, row, focusedTitle, open: () => toggle.click() };
}

describe('History filter', () => {
  it('is offered from 8 conversations on, only while History is open', () => {
    const seven = panel(conversations(titles.slice(0, 7)));
    seven.open();
    assert.equal(seven.history.hidden, false);
    assert.equal(seven.filter.hidden, true, '7 conversations: no filter');
    const eight = panel(conversations(titles.slice(0, 8)));
    assert.equal(eight.filter.hidden, true, 'History closed: no filter');
    eight.open();
    assert.equal(eight.filter.hidden, false, '8 conversations: a filter');
    assert.equal(eight.filter.getAttribute('aria-controls'), 'history');
    eight.open();
    assert.equal(eight.filter.hidden, true, 'closed with the list');
  });

  it('shows the rows whose title has every word typed, in any case; the list coming again keeps the filter', () => {
    const view = panel(conversations());
    view.open();
    view.type('RELEASE');
    assert.deepEqual(view.shown(), ['Release plan for Tuesday', 'Release notes draft', 'release checklist']);
    assert.equal(view.count(), '3 of 9 conversations match.', 'a screen reader hears the count as the filter changes');
    view.type('  plan   release ');
    assert.deepEqual(view.shown(), ['Release plan for Tuesday']);
    assert.equal(view.count(), '1 of 9 conversations match.');
    assert.equal(view.noMatch.hidden, true);
    // A run ended, the list is sent again with a new conversation on top: filtered as typed.
    view.layout.setHistory(conversations(['Plan the release party', ...titles]), undefined);
    assert.equal(view.filter.value, '  plan   release ');
    assert.deepEqual(view.shown(), ['Plan the release party', 'Release plan for Tuesday']);
    assert.equal(view.count(), '2 of 10 conversations match.');
    view.type('');
    assert.equal(view.shown().length, titles.length + 1);
    assert.equal(view.count(), '', 'nothing to say without a filter');
  });

  it('the list drawn again with the same count leaves the live regions alone; a new count is said', () => {
    const view = panel(conversations());
    view.open();
    view.type('release');
    assert.equal(view.count(), '3 of 9 conversations match.');
    // A screen reader speaks a live region again whenever its text is written, even with the same words.
    const countNode = document.querySelector('[data-testid="history-filter-count"]')!;
    const writes = new MutationObserver(() => undefined);
    writes.observe(countNode, { childList: true, characterData: true, subtree: true });

    // A run ended: the list comes again, its first entry just used, the same rows match.
    const list = conversations();
    list[0] = { ...list[0]!, updatedAt: Date.now() };
    view.layout.setHistory(list, undefined);
    assert.deepEqual(view.shown(), ['Release plan for Tuesday', 'Release notes draft', 'release checklist']);
    assert.equal(writes.takeRecords().length, 0, 'the count is not written again');

    // Another run named a new conversation that matches: the new count is said.
    view.layout.setHistory(conversations(['Release party', ...titles]), undefined);
    assert.equal(view.count(), '4 of 10 conversations match.');
    assert.ok(writes.takeRecords().length > 0);

    // The "no match" line likewise stays as it is while the list comes again with still none.
    view.type('kubernetes');
    writes.takeRecords();
    const shows = new MutationObserver(() => undefined);
    shows.observe(view.noMatch, { attributes: true, attributeFilter: ['hidden'] });
    view.layout.setHistory(conversations(['Release party', ...titles]), undefined);
    assert.equal(view.noMatch.hidden, false);
    assert.equal(shows.takeRecords().length, 0, 'the "no match" line is not hidden and shown again');
    assert.equal(writes.takeRecords().length, 0);
    writes.disconnect();
    shows.disconnect();
  });

  it('a filter that matches nothing says so, without an empty frame', () => {
    const view = panel(conversations());
    view.open();
    view.type('kubernetes');
    assert.deepEqual(view.shown(), []);
    assert.equal(view.noMatch.hidden, false);
    assert.equal(view.noMatch.textContent, 'No conversation matches.');
    assert.equal(view.count(), '', 'the no-match line says it');
    assert.equal(view.noMatch.getAttribute('role'), 'status');
    assert.ok(view.history.classList.contains('none-shown'));
    view.type('parser');
    assert.equal(view.noMatch.hidden, true);
    assert.ok(!view.history.classList.contains('none-shown'));
  });

  it('Escape empties the filter first, the next one closes History and gives the keyboard to its button; not while composing', () => {
    const view = panel(conversations());
    view.open();
    view.filter.focus();
    view.type('release');
    const composing = view.press('Escape', { isComposing: true });
    assert.equal(composing.defaultPrevented, false, "the input method's Escape is its own");
    assert.equal(view.filter.value, 'release');
    assert.equal(view.shown().length, 3);

    const first = view.press('Escape');
    assert.equal(first.defaultPrevented, true);
    assert.equal(view.filter.value, '');
    assert.equal(view.shown().length, titles.length, 'every row again');
    assert.equal(view.history.hidden, false, 'still open');
    assert.equal(document.activeElement, view.filter);

    view.type('kubernetes');
    view.press('Escape');
    assert.equal(view.noMatch.hidden, true, 'no "no match" line once emptied');
    view.press('Escape');
    assert.equal(view.history.hidden, true, 'closed');
    assert.equal(view.filter.hidden, true);
    assert.equal(view.toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(document.activeElement, view.toggle);
    assert.equal(view.noMatch.hidden, true);
  });

  it('a delete while filtering puts the keyboard on the shown row that took its place; Undo puts it back on the restored row', () => {
    const list = conversations();
    const view = panel(list);
    view.open();
    view.type('the');
    assert.deepEqual(view.shown(), ['Fix the login bug', 'Refactor the parser', 'Explain the build', 'Rename the module', 'Plan the offsite']);

    // The second row shown is the fifth of the whole list.
    view.row('Refactor the parser').querySelector<HTMLElement>('button.muted')!.click();
    assert.deepEqual(view.posted.at(-1), { type: 'deleteConversation', id: 'c4' });
    const deleted = list[4]!;
    view.layout.setHistory(list.filter((entry) => entry.id !== deleted.id), undefined, deleted);
    assert.deepEqual(view.shown(), ['Fix the login bug', 'Explain the build', 'Rename the module', 'Plan the offsite']);
    assert.equal(view.focusedTitle(), 'Explain the build', 'the shown row now where the deleted one was');
    assert.match(view.history.querySelector('.history-undo')!.textContent ?? '', /Deleted “Refactor the parser”/);

    // Undo: the list comes back with it, and so does the keyboard.
    view.history.querySelector<HTMLElement>('[data-testid="history-undo"]')!.click();
    assert.deepEqual(view.posted.at(-1), { type: 'undoDelete' });
    view.layout.setHistory(list, undefined);
    assert.equal(view.shown().length, 5);
    assert.equal(view.focusedTitle(), 'Refactor the parser');

    // The last row shown deleted: the keyboard goes to the one before it.
    view.row('Plan the offsite').querySelector<HTMLElement>('button.muted')!.click();
    view.layout.setHistory(list.slice(0, -1), undefined, list.at(-1));
    assert.equal(view.focusedTitle(), 'Rename the module');
  });

  it('the only row shown deleted: the keyboard goes to Undo, and the list says nothing matches', () => {
    const list = conversations();
    const view = panel(list);
    view.open();
    view.type('parser');
    view.row('Refactor the parser').querySelector<HTMLElement>('button.muted')!.click();
    view.layout.setHistory(list.filter((entry) => entry.title !== 'Refactor the parser'), undefined, list[4]);
    assert.deepEqual(view.shown(), []);
    assert.equal(document.activeElement?.getAttribute('data-testid'), 'history-undo');
    assert.equal(view.noMatch.hidden, false);
  });
});
