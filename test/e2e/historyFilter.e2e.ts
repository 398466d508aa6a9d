// The History filter in a real VS Code (code-server + headless Chromium):
// conversations made through the panel (chat mode, scripted model); the
// filter is offered from 8 on, shows the rows whose title has the words
// typed, says when none match, keeps the keyboard on a shown row after a
// delete, and Escape empties it, then closes the list.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { failureReporter, send, waitFor, waitIdle } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession | undefined;
let workspace: string;
const guarded = failureReporter('history-filter', () => session);

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-history-filter-'));
  fs.writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n');
  server = await startScriptedModelServer({ models: ['chat-model'] });
  session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': 'chat-model',
      'tandem.agent.mode': 'chat',
    },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

// Oldest first; History lists them newest first.
const titles = [
  'Release plan for the team',
  'Fix the login bug',
  'Release notes draft',
  'Why is CI slow',
  'Refactor the parser',
  'release checklist',
  'Explain the build',
  'Rename the module',
  'Plan the offsite',
];

/** Starts a new conversation and asks `question` (its title); waits for the answer. */
async function conversation(view: Frame, question: string): Promise<void> {
  await view.locator('[data-testid="new-chat"]').click();
  await waitFor(async () => (await view.locator('[data-testid="user-message"]').count()) === 0, 'an empty conversation');
  server.push({ content: `Answer to: ${question}` });
  await send(view, question);
  await view.locator('[data-testid="answer"]', { hasText: `Answer to: ${question}` }).waitFor({ timeout: 60_000 });
  await waitIdle(view);
}

/** The titles of the History rows shown, top to bottom. */
function shownTitles(view: Frame): Promise<string[]> {
  return view.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="history"] .history-item')].filter((item) => !item.hidden && item.offsetParent !== null).map((item) => item.dataset['title'] ?? ''));
}

async function setHistoryOpen(view: Frame, open: boolean): Promise<void> {
  const history = view.locator('[data-testid="history"]');
  if ((await history.isVisible()) !== open) await view.locator('[data-testid="history-toggle"]').click();
  await history.waitFor({ state: open ? 'visible' : 'hidden' });
}

test('History filter: offered from 8 conversations, filters by title, says when none match, keeps focus on a shown row after a delete; Escape empties it, then closes History', { timeout: 300_000 }, () =>
  guarded('filter', async () => {
    assert.ok(session);
    const view = await session.webview();
    const filter = view.locator('[data-testid="history-filter"]');
    const history = view.locator('[data-testid="history"]');

    for (const title of titles.slice(0, 7)) await conversation(view, title);
    await setHistoryOpen(view, true);
    await waitFor(async () => (await history.locator('.history-item').count()) === 7, 'seven conversations in History');
    assert.equal(await filter.isVisible(), false, 'seven conversations: no filter');
    await setHistoryOpen(view, false);

    for (const title of titles.slice(7)) await conversation(view, title);
    await setHistoryOpen(view, true);
    await waitFor(async () => (await history.locator('.history-item').count()) === titles.length, 'every conversation in History');
    await filter.waitFor({ state: 'visible' });
    assert.deepEqual(await shownTitles(view), [...titles].reverse());

    // One word, any case; then every word must be in the title.
    await filter.fill('RELEASE');
    await waitFor(async () => (await shownTitles(view)).length === 3, 'three rows');
    assert.deepEqual(await shownTitles(view), ['release checklist', 'Release notes draft', 'Release plan for the team']);
    await filter.fill('release team');
    await waitFor(async () => (await shownTitles(view)).length === 1, 'one row');
    assert.deepEqual(await shownTitles(view), ['Release plan for the team']);

    // Nothing matches: said, with no empty frame.
    await filter.fill('kubernetes');
    const noMatch = view.locator('.history-no-match');
    await noMatch.waitFor({ state: 'visible' });
    assert.equal(await noMatch.innerText(), 'No conversation matches.');
    assert.deepEqual(await shownTitles(view), []);
    assert.equal(await history.evaluate((element) => element.classList.contains('none-shown')), true);
    await session.screenshot('history-filter-no-match');

    // A delete while filtering: the keyboard goes to the shown row that took its place.
    await filter.fill('the');
    await waitFor(async () => (await shownTitles(view)).length === 6, 'six rows');
    assert.deepEqual(await shownTitles(view), ['Plan the offsite', 'Rename the module', 'Explain the build', 'Refactor the parser', 'Fix the login bug', 'Release plan for the team']);
    await history.locator('.history-item', { hasText: 'Refactor the parser' }).locator('button.link.muted').click();
    await waitFor(async () => !(await shownTitles(view)).includes('Refactor the parser'), 'the row to go');
    assert.equal(await filter.inputValue(), 'the', 'the filter stays as typed');
    assert.deepEqual(await shownTitles(view), ['Plan the offsite', 'Rename the module', 'Explain the build', 'Fix the login bug', 'Release plan for the team']);
    await waitFor(
      async () => (await view.evaluate(() => (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.history-item')?.dataset['title'])) === 'Fix the login bug',
      'the keyboard on the row now in its place',
      10_000,
    );
    await session.screenshot('history-filter');

    // Escape empties the filter, the list stays open; a second Escape closes it, the keyboard back on its button.
    await filter.press('Escape');
    await waitFor(async () => (await filter.inputValue()) === '', 'the filter to empty');
    await waitFor(async () => (await shownTitles(view)).length === titles.length - 1, 'every row again');
    assert.equal(await history.isVisible(), true, 'still open');
    assert.equal(await noMatch.isVisible(), false);
    await filter.press('Escape');
    await history.waitFor({ state: 'hidden' });
    assert.equal(await filter.isVisible(), false);
    assert.equal(await view.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'history-toggle');
  }),
);
