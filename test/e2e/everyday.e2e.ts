// Everyday agent work in a real VS Code (code-server + headless Chromium)
// against the scripted model server, one run: reading a file under a nested
// AGENTS.md brings its text into both models' system prompts; an edit that
// breaks a JSON file (a field of the wrong type for its local `$schema`; the
// package.json schemas need schemastore.org, which is offline here) returns
// the diagnostic to the model; run_command goes
// through the Tandem terminal's shell integration (escape sequences stripped),
// and a timeout or Stop ends a command there.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { openFileInEditor, waitFor } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'everyday',
    files: {
      'pkg/AGENTS.md': 'Package rules: keep names short. NESTED-MARKER-5150\n',
      'pkg/notes.txt': 'Some notes.\n',
      'server.schema.json': JSON.stringify({ type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } }, null, 2),
      'server.json': '{\n  "$schema": "./server.schema.json",\n  "name": "everyday",\n  "port": 8080\n}\n',
      // A TypeScript project (without one, TypeScript's references cover only the files open in editors).
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
      'src/greet.ts': '// greet: says hello\nexport function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
      'src/main.ts': "import { greet } from './greet';\n\nconsole.log(greet('Ada'));\n// greet again later\nconst greeting = greet('Bob');\n",
      // Prompt files, as Copilot and Claude Code keep them.
      '.github/prompts/explain.prompt.md': "---\ndescription: Explain a part of the code\ntools: ['codebase', 'githubRepo']\n---\nExplain ${input:topic} to a newcomer.\n",
      '.claude/commands/summarize.md': 'Summarize $ARGUMENTS in three lines.\n',
      // A custom agent, as Copilot keeps them.
      '.github/agents/reviewer.agent.md': "---\ndescription: Reviews without editing\ntools: ['codebase']\n---\nReview only; never edit. REVIEWER-MARKER-4242\n",
    },
    settings: {
      'tandem.agent.maxIterations': 10,
      'tandem.agent.maxExecutionSeconds': 120,
      'tandem.tools.autoApprove': 'all',
      'tandem.tools.alwaysAllow': ['run_command:printf', 'run_command:sleep'],
    },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

function toolResult(callId: string): string {
  for (const request of server.requests) {
    for (const message of request.body?.messages ?? []) {
      if (message.role === 'tool' && message.tool_call_id === callId) return String(message.content);
    }
  }
  return '';
}

/** Process ids of `sleep 41` commands on this machine (the one the test starts). */
function runningSleeps(): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => /^\s*\d+ sleep 41$/.test(line));
}

function systemPrompt(request: { body: { messages: { role: string; content: unknown }[] } }): string {
  return String(request.body.messages.find((message) => message.role === 'system')?.content ?? '');
}

test('nested AGENTS.md reaches both models, an edit returns its diagnostic, run_command uses the terminal', { timeout: 150_000 }, async () => {
  try {
    server.push(
      { model: fc, toolCalls: [{ id: 'read', name: 'read_file', arguments: { path: 'pkg/notes.txt' } }] },
      { model: fc, toolCalls: [{ id: 'rename', name: 'edit_file', arguments: { path: 'server.json', edits: [{ oldText: '"everyday"', newText: '"daily"' }] } }] },
      { model: fc, toolCalls: [{ id: 'edit', name: 'edit_file', arguments: { path: 'server.json', edits: [{ oldText: '8080', newText: '"eighty"' }] } }] },
      { model: fc, toolCalls: [{ id: 'printf', name: 'run_command', arguments: { command: "printf 'plain \\033[31mred\\033[0m done\\n'" } }] },
      { model: fc, toolCalls: [{ id: 'sleep', name: 'run_command', arguments: { command: 'sleep 30', timeoutSeconds: 2 } }] },
      { model: fc, content: 'Done.' },
      { model: answerModel, content: 'All done.' },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Read the notes, break the manifest and run two commands.');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false' && server.requests.some((request) => request.body?.model === answerModel), 'the run to end', 120_000);

    // Nested rules: absent from the first request, in every later one of both models.
    const requests = server.requests.filter((request) => request.body?.model === fc || request.body?.model === answerModel);
    assert.equal(requests.length, 7);
    assert.doesNotMatch(systemPrompt(requests[0]!), /NESTED-MARKER-5150/);
    for (const request of requests.slice(1)) assert.match(systemPrompt(request), /--- pkg\/AGENTS\.md ---\nPackage rules: keep names short\. NESTED-MARKER-5150/, request.body.model);
    const notices = await view.locator('[data-testid="notice"]').allInnerTexts();
    assert.ok(notices.some((text) => text.includes('Rules: + pkg/AGENTS.md (for pkg/notes.txt)')), notices.join(' | '));

    // Diagnostics: a clean edit says so (it also starts the JSON language server, which can take
    // most of the wait on a loaded machine); the schema's complaint about the port reaches the model.
    assert.match(toolResult('rename'), /^Edited server\.json: 1 replacement\.\n\n(VS Code reports no errors or warnings in server\.json|No errors or warnings reported for server\.json yet)/);
    // (On a loaded machine the reports may not go quiet within the 3 s bound; the result then says so.)
    const edit = toolResult('edit');
    assert.match(edit, /^Edited server\.json: 1 replacement\./, edit);
    assert.match(edit, /VS Code reports 1 warning in server\.json after this change[^:\n]*:\n- server\.json:4:11 warning: Incorrect type\. Expected "integer"\./, edit);
    // The panel says it on the step's title, seen with the step closed.
    const editTitle = await view.locator('[data-kind="tool-result"]').nth(2).locator('summary').innerText();
    assert.match(editTitle, /Edited server\.json: 1 replacement\. 1 warning after it/, editTitle);
    // The edited file was shown (for its diagnostics) at the first edit's line, not at its top.
    await waitFor(async () => /Ln 3, Col 1/.test(await session.page.locator('#status\\.editor\\.selection').innerText().catch(() => '')), 'server.json shown at line 3', 10_000);

    // run_command through the terminal: plain text, exit code; the timeout ends the command.
    const printed = toolResult('printf');
    assert.match(printed, /exit code 0/, printed);
    assert.match(printed, /plain red done/, printed);
    assert.doesNotMatch(printed, /\u001b/, 'no escape sequences reach the model');
    const slept = toolResult('sleep');
    assert.match(slept, /timed out after 2 s/, slept);
    const duration = Number(/, (\d+) ms/.exec(slept)?.[1]);
    assert.ok(duration < 10_000, `the timeout ended sleep: ${slept}`);
    const logs = session.logs();
    assert.match(logs, /run_command: via the Tandem terminal \(shell integration\): printf/, 'printf ran in the terminal');
    assert.match(logs, /run_command: via the Tandem terminal \(shell integration\): sleep 30/, 'sleep ran in the terminal');

    // Stop while a command runs in the terminal: the run ends and so does the command.
    server.push({ model: fc, toolCalls: [{ id: 'long', name: 'run_command', arguments: { command: 'sleep 41' } }] });
    await prompt.fill('Wait a while.');
    await prompt.press('Enter');
    await waitFor(async () => runningSleeps().length > 0, 'sleep 41 to start');
    await view.locator('[data-testid="stop"]').click();
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to stop', 20_000);
    await waitFor(async () => runningSleeps().length === 0, 'Stop to end sleep 41', 10_000);
  } catch (error) {
    await session.screenshot('everyday-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('the model keeps a todo list: the plan above the prompt box follows it, each step shows its list', { timeout: 120_000 }, async () => {
  try {
    const plan = (statuses: readonly string[]) => ({ todos: ['Read the notes', 'Rename the server', 'Check the manifest'].map((title, index) => ({ title, status: statuses[index] })) });
    server.push(
      {
        model: fc,
        toolCalls: [
          { id: 'plan-1', name: 'update_todo_list', arguments: plan(['in_progress', 'pending', 'pending']) },
          { id: 'notes', name: 'read_file', arguments: { path: 'pkg/notes.txt' } },
        ],
      },
      { model: fc, toolCalls: [{ id: 'plan-2', name: 'update_todo_list', arguments: plan(['completed', 'in_progress', 'pending']) }] },
      { model: fc, content: 'Stopping here.' },
      { model: answerModel, content: 'I read the notes; the rename is next.' },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Plan the rename, then start.');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('the rename is next'), 'the answer', 60_000);
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end', 20_000);

    // The plan: the newest list, one line while closed, the whole list when opened; it stays while work is left.
    const planBox = view.locator('[data-testid="plan"]');
    assert.equal(await planBox.isVisible(), true);
    assert.equal(await view.locator('[data-testid="plan-headline"]').innerText(), '1 of 3 done · Rename the server');
    await planBox.locator('summary').click();
    const rows = planBox.locator('[data-testid="todo-item"]');
    await waitFor(async () => (await rows.count()) === 3, 'the plan opened');
    assert.deepEqual(await rows.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['status'])), ['completed', 'in_progress', 'pending']);
    assert.match(await rows.nth(0).innerText(), /Read the notes/);
    // The plan fits the panel beside the prompt box (it is not pushed out of view).
    const box = await planBox.boundingBox();
    const promptBox = await prompt.boundingBox();
    assert.ok(box && promptBox && box.y + box.height <= promptBox.y + 1, `the plan sits above the prompt box: ${JSON.stringify({ box, promptBox })}`);
    await session.screenshot('todo-plan');

    // Each call's step reads where the list stood then.
    const titles = await view.locator('[data-kind="tool-result"] summary').allInnerTexts();
    assert.ok(titles.some((title) => title.includes('0 of 3 done · Read the notes')), titles.join(' | '));
    assert.ok(titles.some((title) => title.includes('1 of 3 done · Rename the server')), titles.join(' | '));
    // The model read back where the list stood, and the run's record reaches the next turn (checked in the unit suite).
    const planResult = toolResult('plan-2');
    assert.equal(planResult, 'Todo list updated: 1 of 3 completed. In progress: Rename the server.');
  } catch (error) {
    await session.screenshot('todo-plan-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('out of sight, the view says a run goes and how it ended: progress on its icon, then a badge until it is seen', { timeout: 120_000 }, async () => {
  const tandemIcon = session.page.locator('.activitybar .action-item').filter({ has: session.page.locator('[aria-label^="Tandem"]') });
  try {
    server.push(
      { model: fc, firstByteDelayMs: 6_000, content: 'Nothing to call.' },
      { model: answerModel, content: 'Answered while you looked away.' },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Take your time.');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'true', 'the run to start', 10_000);
    await session.runCommand('workbench.view.explorer', 'View: Show Explorer');
    // VS Code's own progress on a hidden view: its icon shows it.
    await waitFor(async () => (await tandemIcon.locator('.badge.progress-badge').count()) > 0, 'the progress on the Tandem icon', 5_000);
    assert.equal(await tandemIcon.locator('.badge-content').innerText(), '', 'no count while it only works');

    await waitFor(async () => server.requests.some((request) => request.body?.model === answerModel), 'the answer model', 60_000);
    await waitFor(async () => (await tandemIcon.locator('.badge-content').innerText().catch(() => '')) === '1', 'the badge on the Tandem icon', 20_000);
    const hover = (await tandemIcon.locator('[aria-label^="Tandem"]').first().getAttribute('aria-label')) ?? '';
    assert.match(hover, /Tandem answered/, hover);
    await session.screenshot('view-attention');

    // Seen: the badge goes.
    await tandemIcon.click();
    await waitFor(async () => (await tandemIcon.locator('.badge-content').innerText().catch(() => '')) === '', 'the badge to go once the view is seen', 10_000);
    // The view shown again may still be drawing the conversation: wait for its last answer.
    const shown = await session.webview();
    await waitFor(async () => /Answered while you looked away/.test(await shown.locator('[data-testid="answer"]').last().innerText().catch(() => '')), 'the answer in the view shown again', 10_000);
  } catch (error) {
    await session.screenshot('view-attention-failure').catch(() => undefined);
    console.error(await session.page.locator('.activitybar').innerHTML().catch(() => 'no activity bar'));
    console.error(session.logs());
    throw error;
  }
});

test('find_usages answers from TypeScript\'s language service: the definition and each call, not the comments or look-alike names', { timeout: 120_000 }, async () => {
  try {
    server.push(
      { model: fc, toolCalls: [{ id: 'usages', name: 'find_usages', arguments: { symbol: 'greet' } }] },
      { model: fc, content: 'Found them.' },
      { model: answerModel, content: 'greet is called twice in main.ts.' },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Where is greet used?');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('called twice'), 'the answer', 90_000);
    const found = toolResult('usages');
    const [head, defined, used] = found.split('\n\n');
    assert.equal(head, '"greet": 1 definition in the workspace, 3 uses in 1 file (VS Code\'s language services).', found);
    // Found by the symbol search (which names its kind) or, before TypeScript has loaded the project, from a use.
    assert.match(defined ?? '', /^Defined at:\n- src\/greet\.ts:2:17: export function greet\(name: string\): string \{( \(function\))?$/, found);
    assert.equal(used, "Used at:\n- src/main.ts:1:10: import { greet } from './greet';\n- src/main.ts:3:13: console.log(greet('Ada'));\n- src/main.ts:5:18: const greeting = greet('Bob');", found);
    // The step reads as a search: how many uses, the first three.
    const titles = await view.locator('[data-kind="tool-result"] summary').allInnerTexts();
    assert.ok(titles.some((title) => /find_usages.*3 uses/.test(title)), titles.join(' | '));
    await session.screenshot('find-usages');
  } catch (error) {
    await session.screenshot('find-usages-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('run_subagent: the subagent reads on its own, its steps show in the caller\'s step, and its report is the result', { timeout: 120_000 }, async () => {
  try {
    server.push(
      { model: fc, toolCalls: [{ id: 'delegate', name: 'run_subagent', arguments: { task: 'Read pkg/notes.txt and say what it holds.' } }] },
      { model: fc, toolCalls: [{ id: 'sub-read', name: 'read_file', arguments: { path: 'pkg/notes.txt' } }] },
      { model: fc, content: 'Read it.' },
      { model: answerModel, content: 'pkg/notes.txt holds one line: "Some notes."' },
      { model: fc, content: 'Enough.' },
      { model: answerModel, content: 'The notes file says "Some notes."' },
    );
    const before = server.requests.length;
    const view = await session.webview();
    const reads = async () => (await view.locator('[data-kind="tool-result"] summary').allInnerTexts()).filter((title) => /^read_file pkg\/notes\.txt/.test(title.trim())).length;
    const readsBefore = await reads();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('What is in the notes? Ask a subagent.');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('The notes file says'), 'the answer', 90_000);

    // The subagent's request: the task alone, and only reads to call.
    const sub = server.requests[before + 1]!;
    const users = sub.body.messages.filter((message: { role: string }) => message.role === 'user').map((message: { content: string }) => message.content);
    assert.equal(users.length, 1);
    assert.match(users[0], /Task: Read pkg\/notes\.txt and say what it holds\.$/);
    const offered = sub.body.tools.map((tool: { function: { name: string } }) => tool.function.name);
    assert.ok(offered.includes('read_file') && !offered.includes('run_subagent') && !offered.includes('edit_file') && !offered.includes('run_command'), offered.join(', '));
    assert.match(toolResult('delegate'), /^The subagent's report \(1 tool call: read_file pkg\/notes\.txt\):\n\npkg\/notes\.txt holds one line/);

    // The caller's step: the subagent's steps and its report's first line.
    const step = view.locator('[data-kind="tool-result"]').filter({ hasText: 'run_subagent' }).last();
    assert.match(await step.locator('summary').first().innerText(), /run_subagent "Read pkg\/notes\.txt and say what it holds\.": 1 step · pkg\/notes\.txt holds one line/);
    await step.locator('summary').first().click();
    const item = step.locator('[data-testid="subagent-step"]');
    await waitFor(async () => (await item.count()) === 1, 'the subagent\'s step in the caller\'s step', 10_000);
    assert.equal(await item.getAttribute('data-status'), 'done');
    assert.equal((await item.innerText()).replace(/\s+/g, ' ').trim(), '✓ read_file pkg/notes.txt');
    // No step of the subagent's own stands in the conversation: it is inside the caller's.
    assert.equal(await reads(), readsBefore);
    await session.screenshot('subagent');
  } catch (error) {
    await session.screenshot('subagent-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('prompt files are slash commands: listed after "/", filled from the words after them, and a new file joins the list', { timeout: 120_000 }, async () => {
  try {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    const offered = async () => (await view.locator('[data-testid="slash-command"]').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['command']))).sort();
    await prompt.fill('/');
    // The prompt files, and Tandem's own /init.
    await waitFor(async () => (await offered()).join() === 'explain,init,summarize', 'the prompt files after "/"', 30_000);
    assert.match(await view.locator('[data-testid="slash-command"][data-command="explain"]').innerText(), /Explain a part of the code \(tools: codebase, githubRepo\)/);
    await session.screenshot('prompt-files');

    server.push({ model: fc, content: 'Enough.' }, { model: answerModel, content: 'Three lines about the notes.' });
    const before = server.requests.length;
    await prompt.fill('/summarize pkg/notes.txt');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('Three lines about the notes.'), 'the answer', 60_000);
    const users = server.requests[before]!.body.messages.filter((message: { role: string }) => message.role === 'user');
    assert.match(String(users.at(-1)?.content), /Summarize pkg\/notes\.txt in three lines\.$/);
    assert.match(await view.locator('[data-testid="user-message"]').last().innerText(), /Summarize pkg\/notes\.txt in three lines\./);

    // A file's `tools:` narrows what the run offers: Copilot's `codebase` is the workspace's reads; `githubRepo` names none here.
    server.push({ model: fc, content: 'Enough.' }, { model: answerModel, content: 'Queues hold work in order.' });
    const beforeExplain = server.requests.length;
    await prompt.fill('/explain topic=queues');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('Queues hold work in order.'), 'the answer', 60_000);
    const offeredTools = server.requests[beforeExplain]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name).sort();
    assert.deepEqual(offeredTools, ['find_files', 'list_dir', 'read_file', 'search_text']);
    await view.locator('[data-kind="notice"]', { hasText: 'This message may use only the tools its slash command names: read_file, list_dir, find_files, search_text ("githubRepo" named no tool here).' }).waitFor({ timeout: 10_000 });

    // A prompt file added while the panel is open joins the list.
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const pathModule = await import('node:path');
    mkdirSync(pathModule.join(workspace, '.tandem/prompts'), { recursive: true });
    writeFileSync(pathModule.join(workspace, '.tandem/prompts/release-notes.md'), '---\nmode: ask\n---\nWrite the release notes from ${fileBasename} (${file}), starting with: ${selection}\n');
    await prompt.fill('');
    await prompt.fill('/');
    await waitFor(async () => (await offered()).includes('release-notes'), 'the new prompt file after "/"', 30_000);
    await prompt.fill('');

    // Its editor variables are what the editor shows when it is sent; its `mode: ask` sends it in Chat mode.
    await openFileInEditor(session, 'notes.txt');
    await session.page.keyboard.press('Control+A');
    server.push({ model: answerModel, content: 'Notes written.' });
    const beforeNotes = server.requests.length;
    const view2 = await session.webview();
    const prompt2 = view2.locator('[data-testid="prompt"]');
    await prompt2.fill('/release-notes');
    // Enter would take the list's item; the button sends.
    await view2.locator('[data-testid="send"]').click();
    await waitFor(async () => (await view2.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('Notes written.'), 'the answer', 60_000);
    assert.match(await view2.locator('[data-testid="user-message"]').last().innerText(), /Write the release notes from notes\.txt \(pkg\/notes\.txt\), starting with: Some notes\./);
    assert.deepEqual(server.requests.slice(beforeNotes).map((request) => [request.model, request.body.tools === undefined]), [[answerModel, true]], 'one answer, no tools');
    await view2.locator('[data-kind="notice"]', { hasText: 'This message runs in Chat mode (no tools), as its slash command asks; the panel stays in Agent mode.' }).waitFor({ timeout: 10_000 });
    assert.equal((await view2.locator('[data-testid="mode-toggle"]').innerText()).trim(), 'Agent mode', 'the toggle is left as it was');
    await session.screenshot('prompt-file-chat-mode');
  } catch (error) {
    await session.screenshot('prompt-files-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('/init: in Agent mode whatever the toggle says, the agent writes AGENTS.md, and the write waits for the user even under autoApprove all', { timeout: 120_000 }, async () => {
  const { existsSync, readFileSync } = await import('node:fs');
  const pathModule = await import('node:path');
  const view = await session.webview();
  const toggle = view.locator('[data-testid="mode-toggle"]');
  try {
    await toggle.click();
    await waitFor(async () => (await toggle.innerText()).trim() === 'Chat mode', 'the toggle in Chat mode', 10_000);
    const before = server.requests.length;
    const written = '# Agents\n\n- Notes live in pkg/notes.txt.\n';
    server.push(
      { model: fc, toolCalls: [{ id: 'init-write', name: 'write_file', arguments: { path: 'AGENTS.md', content: written } }] },
      { model: fc, content: 'Written.' },
      { model: answerModel, content: 'AGENTS.md now says where the notes live.' },
    );
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('/init mention the notes');
    await prompt.press('Enter');

    const card = view.locator('[data-testid="approval"][data-status="pending"]').last();
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await card.getAttribute('data-tool'), 'write_file');
    assert.equal(existsSync(pathModule.join(workspace, 'AGENTS.md')), false, 'nothing written before the approval');
    await session.screenshot('init-approval');
    await card.locator('[data-testid="approve"]').click();
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('AGENTS.md now says where the notes live.'), 'the answer', 60_000);
    assert.equal(readFileSync(pathModule.join(workspace, 'AGENTS.md'), 'utf8'), written);

    // The function-call model was asked, with tools, the command's text and the words after it.
    const asked = server.requests[before]!;
    assert.equal(asked.model, fc);
    assert.ok(asked.body.tools.some((tool: { function: { name: string } }) => tool.function.name === 'write_file'));
    const users = asked.body.messages.filter((message: { role: string }) => message.role === 'user');
    assert.match(String(users.at(-1)?.content), /^Study this workspace and write an AGENTS\.md at its root[\s\S]*\n\nAlso: mention the notes$/);
    await view.locator('[data-kind="notice"]', { hasText: 'This message runs in Agent mode, as its slash command asks; the panel stays in Chat mode (no tools).' }).waitFor({ timeout: 10_000 });
    assert.equal((await toggle.innerText()).trim(), 'Chat mode', 'the toggle is left as it was');
  } catch (error) {
    await session.screenshot('init-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  } finally {
    if ((await toggle.innerText().catch(() => '')).trim() === 'Chat mode') await toggle.click();
  }
});

test('a custom agent chosen from the palette: its instructions reach the models and its tools are the only ones offered, until None', { timeout: 120_000 }, async () => {
  const page = session.page;
  const view = await session.webview();
  const choose = async (label: string) => {
    await session.runCommand('tandem.chooseCustomAgent');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(label);
    await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await input.press('Enter');
  };
  try {
    await choose('reviewer');
    await view.locator('[data-kind="notice"]', { hasText: 'Custom agent: reviewer.' }).waitFor({ timeout: 10_000 });
    // The panel names it under the header while it is chosen.
    const shown = view.locator('[data-testid="custom-agent"]');
    await shown.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal((await shown.innerText()).trim(), 'reviewer');
    server.push({ model: fc, content: 'Enough.' }, { model: answerModel, content: 'Reviewed.' });
    const before = server.requests.length;
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Review the greeting.');
    await prompt.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('Reviewed.'), 'the answer', 60_000);
    const asked = server.requests[before]!;
    const system = String(asked.body.messages.find((message: { role: string }) => message.role === 'system')?.content);
    assert.match(system, /The custom agent "reviewer" the user works with: follow its instructions\.\n\nReview only; never edit\. REVIEWER-MARKER-4242/);
    assert.match(String(server.requests[before + 1]!.body.messages[0]?.content), /REVIEWER-MARKER-4242/, 'the answer model reads it too');
    assert.deepEqual(asked.body.tools.map((tool: { function: { name: string } }) => tool.function.name).sort(), ['find_files', 'list_dir', 'read_file', 'search_text']);
    await view.locator('[data-kind="notice"]', { hasText: 'This message may use only the tools the custom agent "reviewer" names: read_file, list_dir, find_files, search_text.' }).waitFor({ timeout: 10_000 });
    await session.screenshot('custom-agent');

    // Its button opens the same choice.
    await shown.click();
    await session.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'None' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await session.page.keyboard.press('Escape');
    await choose('None');
    await view.locator('[data-kind="notice"]', { hasText: 'No custom agent: runs follow the rules files alone, with every tool.' }).waitFor({ timeout: 10_000 });
    await shown.waitFor({ state: 'hidden', timeout: 10_000 });
  } catch (error) {
    await session.screenshot('custom-agent-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});
