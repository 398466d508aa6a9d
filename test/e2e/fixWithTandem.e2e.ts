// "Fix with Tandem" in a real VS Code (code-server + headless Chromium)
// against the scripted model server: a JSON file with a syntax error gets the
// quick fix in its lightbulb menu (Ctrl+.), which sends the problem and the
// lines around it to the panel; the palette command on a line with no problem
// says so and sends nothing.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, openFileInEditor, waitFor, waitIdle } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'fix-with-tandem',
    // Line 3 lacks the comma before it: the JSON language server reports "Expected comma" there.
    files: { 'config/server.json': '{\n  "name": "tandem"\n  "port": 8080\n}\n' },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('fix-with-tandem', () => session);

test("a problem's lightbulb offers Fix with Tandem, which sends the problem and its lines; the palette command elsewhere sends nothing", { timeout: 120_000 }, () =>
  guarded('lightbulb', async () => {
    const page = session.page;
    await openFileInEditor(session, 'server.json');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'visible', timeout: 30_000 });

    // On a line with no problem, the palette command says so.
    await page.keyboard.press('Control+Home');
    await session.runCommand('tandem.fixWithTandem', 'Tandem: Fix the Problem at the Cursor');
    await page.locator('.notification-toast', { hasText: 'VS Code reports no problem here.' }).waitFor({ state: 'visible', timeout: 10_000 });
    const before = server.requests.length;

    // On the problem's line, the quick-fix menu has it.
    await page.keyboard.press('Control+G');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+.');
    const action = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Tandem' });
    await action.waitFor({ state: 'visible', timeout: 15_000 });
    await session.screenshot('fix-with-tandem-lightbulb');
    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'Add a comma after "tandem".' });
    // The menu is keyboard-driven (a pointer block covers it): move to the action, then Enter.
    for (let step = 0; step < 5 && !((await action.getAttribute('class')) ?? '').includes('focused'); step++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');

    const view = await session.webview();
    await view.locator('[data-testid="answer"]', { hasText: 'Add a comma after "tandem".' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    const question = await view.locator('[data-testid="user-message"]').last().innerText();
    assert.match(question, /Fix this problem VS Code reports in config\/server\.json:/);
    assert.match(question, /- line 3, error \(json[^)]*\): Expected comma/);
    assert.match(question, /Lines 1-5 as they are now:/);
    const sent = JSON.stringify(server.requests.at(-2)?.messages);
    assert.match(sent, /\\"name\\": \\"tandem\\"\\n  \\"port\\": 8080/, 'the lines as they are go to the model');
    assert.equal(server.requests.length, before + 2, 'the palette command on a clean line sent nothing');
    await session.screenshot('fix-with-tandem-sent');
  }),
);
