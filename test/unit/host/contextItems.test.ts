// What each kind of attached item puts in the message, and how the message is
// assembled: typed text first, then each item's block; an item that cannot be
// attached is named with its reason, never read.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContextAttachments } from '../../../src/host/contextAttachments';
import { formatProblems, openEditorsAttachment, pathAttachment, PROBLEMS_MAX_ENTRIES, problemsAttachment, selectionAttachment, terminalAttachment, unsavedEditorAttachment, type TerminalCommand } from '../../../src/host/contextItems';
import { historyMessages, promptWithAttachments } from '../../../src/protocol/conversationHistory';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import { makeTempDir } from '../tools/workspaceTestKit';

describe('context items', () => {
  let root: string;
  let host: NodeWorkspaceHost;
  const signal = new AbortController().signal;
  before(() => {
    root = makeTempDir('tandem-context-items-');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.ts'), 'const fromDisk = 1;\n');
    writeFileSync(path.join(root, '.tandemignore'), 'private.txt\n');
    writeFileSync(path.join(root, 'private.txt'), 'PRIVATE');
    writeFileSync(path.join(root, '.gitignore'), '.env.local\n');
    writeFileSync(path.join(root, '.env.local'), 'LOCAL=1');
    host = new NodeWorkspaceHost({ folders: [root], openDocuments: new Map([[path.join(root, 'src', 'a.ts'), 'const unsaved = 2;\n']]) });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a file chip names its relative path; an ignored one is an error chip whose content is never sent', async () => {
    const file = await pathAttachment(host, path.join(root, 'src', 'a.ts'));
    assert.deepEqual([file.path, file.label, file.error], ['src/a.ts', 'a.ts', undefined]);
    const folder = await pathAttachment(host, 'src');
    assert.deepEqual([folder.path, folder.label, folder.title], ['src', 'src/', 'src (its list of files and folders, not their contents)']);
    const ignored = await pathAttachment(host, 'private.txt');
    assert.match(ignored.error ?? '', /excluded by \.tandemignore/);
    // Chosen by the user: a .gitignore'd file attaches, and its chip says so.
    const local = await pathAttachment(host, '.env.local');
    assert.deepEqual([local.error, local.title], [undefined, '.env.local (excluded by .gitignore; sent because you attached it)']);
    assert.match(await local.read(signal), /^Attached file \.env\.local:\n```\w*\nLOCAL=1\n```$/);

    const attachments = new ContextAttachments();
    for (const item of [file, ignored, selectionAttachment({ file: 'src/b.py', firstLine: 3, lastLine: 4, languageId: 'python', text: 'x = 1\ny = 2' })]) attachments.attach(item);
    assert.deepEqual(attachments.list().map((item) => item.path), ['src/a.ts', 'private.txt', 'selection:src/b.py:3-4']);
    const attached = await attachments.take(signal);
    assert.deepEqual(attached?.labels?.map((label) => label.replace(/\(not sent: .*\)/u, '(not sent: …)')), ['a.ts', 'private.txt (not sent: …)', 'b.py:3-4']);
    assert.match(attached?.labels?.[1] ?? '', /\(not sent: .*\.tandemignore[^.]*\)$/u);
    const message = promptWithAttachments('Explain.', attached?.text);
    assert.ok(message.startsWith('Explain.\n\nAttached file src/a.ts:\n```ts\nconst unsaved = 2;\n'), message); // the editor's unsaved text
    assert.ok(message.includes('Attached path private.txt was not attached: ') && !message.includes('PRIVATE'), message);
    assert.ok(message.includes('Attached selection from src/b.py, lines 3-4:\n```python\nx = 1\ny = 2\n```'), message);
    assert.equal(attachments.list().length, 0, 'used up by the send');
  });

  it('the labels under a sent prompt say what the models did not get: an item cut in the middle, one that could not be read', async () => {
    writeFileSync(path.join(root, 'long.txt'), `${'line of a long log\n'.repeat(2_000)}`);
    writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const attachments = new ContextAttachments();
    for (const name of ['long.txt', 'logo.png']) attachments.attach(await pathAttachment(host, name));
    const attached = await attachments.take(signal);
    assert.equal(attached?.labels[0], `long.txt (middle cut: ${(38_000 - 16_000).toLocaleString('en-US')} characters left out)`);
    assert.match(attached?.labels[1] ?? '', /^logo\.png \(not sent: .*binary.*\)$/u);
    assert.match(attached?.text ?? '', /Attached file logo\.png could not be read: /);
  });

  it('an unsaved editor (dropped, or Add to Tandem Context on it) is an error chip saying how to attach it; nothing of it is read', async () => {
    const attachments = new ContextAttachments();
    attachments.attach(unsavedEditorAttachment('untitled:Untitled-1', 'Untitled-1'));
    attachments.attach(unsavedEditorAttachment('untitled:Untitled-2', 'Untitled-2'));
    attachments.attach(unsavedEditorAttachment('untitled:Untitled-1', 'Untitled-1'));
    const chips = attachments.list();
    assert.deepEqual(chips.map((item) => [item.path, item.label]), [['untitled:Untitled-1', 'Untitled-1'], ['untitled:Untitled-2', 'Untitled-2']]);
    assert.equal(chips[0]?.error, 'Unsaved editor "Untitled-1": it is not a file yet. Save it to attach it, or select its text and use Add to Tandem Context.');
    assert.equal(chips[0]?.title, chips[0]?.error, 'the tooltip says why');
    const attached = await attachments.take(signal);
    assert.equal(attached?.labels[0], 'Untitled-1 (not sent: Unsaved editor "Untitled-1": it is not a file yet. Save it to attach it, or select its text and use Add to Tandem Context)');
    assert.match(attached?.text ?? '', /^Attached editor Untitled-1 was not attached: Unsaved editor "Untitled-1": it is not a file yet\. Save it/u);
  });

  it('re-attaching the same item replaces it in place; detach removes by path', () => {
    const attachments = new ContextAttachments();
    attachments.attach(selectionAttachment({ file: 'a.ts', firstLine: 1, lastLine: 1, languageId: '', text: 'old' }));
    attachments.attach(problemsAttachment(() => []));
    attachments.attach(selectionAttachment({ file: 'a.ts', firstLine: 1, lastLine: 1, languageId: '', text: 'new' }));
    assert.deepEqual(attachments.list().map((item) => item.path), ['selection:a.ts:1', 'problems']);
    attachments.detach('problems');
    assert.deepEqual(attachments.list().map((item) => item.path), ['selection:a.ts:1']);
  });

  it('problems are listed errors first and capped; open editors are read under the same rules', async () => {
    const problems = Array.from({ length: PROBLEMS_MAX_ENTRIES + 3 }, (_, index) => ({
      file: 'b.ts', line: index + 1, column: 1, severity: index === 7 ? ('error' as const) : ('warning' as const), message: `problem ${index}`, source: 'ts',
    }));
    const listing = formatProblems(problems);
    assert.ok(listing.startsWith('b.ts:8:1 error: problem 7 (ts)\nb.ts:1:1 warning: problem 0 (ts)'), listing.slice(0, 100));
    assert.match(listing, /\[… 3 more problems left out\]$/);
    assert.equal(formatProblems([]), 'No problems are reported in the workspace.');

    const editors = await openEditorsAttachment(host, () => [path.join(root, 'src', 'a.ts'), path.join(root, 'private.txt'), '/elsewhere/x.ts']).read(signal);
    assert.match(editors, /^Attached open editors \(3\):/);
    assert.ok(editors.includes('const unsaved = 2;') && !editors.includes('PRIVATE'), editors);
    assert.match(editors, /Open editor .*private\.txt could not be read: .*excluded by \.tandemignore/);
    assert.match(editors, /Open editor \/elsewhere\/x\.ts could not be read: Refused path/);
  });

  it("the terminal item names the command chosen when attached, and reads how it ended and what it printed when sent", async () => {
    assert.match(await terminalAttachment(undefined).read(signal), /none\. No command has run in a terminal with shell integration/);
    let state: TerminalCommand = { terminal: 'bash', commandLine: 'npm test', cwd: '/work/app', output: '', exitCode: undefined, running: true };
    const item = terminalAttachment({ commandLine: 'npm test', read: () => state });
    assert.equal(item.label, '$ npm test');
    assert.match(await item.read(signal), /\(still running\):\n```\n\(no output\)\n```/);
    state = { ...state, output: 'ok 1\nnot ok 2\n', exitCode: 1, running: false };
    assert.equal(await item.read(signal), 'Attached terminal output: `npm test` in /work/app, in the "bash" terminal (exit code 1):\n```\nok 1\nnot ok 2\n```');
  });

  it('the models read the attached text after the prompt, in later turns too', () => {
    const events = [
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Explain.', runId: 'r1', attached: { labels: ['a.ts'], text: 'Attached file a.ts:\n```\nA\n```' } } },
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Plain.', runId: 'r2' } },
    ] as unknown as AgentEvent[];
    assert.deepEqual(historyMessages(events).map((message) => message.content), ['Explain.\n\nAttached file a.ts:\n```\nA\n```', 'Plain.']);
  });
});
