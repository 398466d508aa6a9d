// Prompt files as slash commands, on real files in a temp workspace: where
// they are found and which wins a name, what the front matter gives, how
// `$ARGUMENTS` and `${input:…}` are filled (and a cancelled question sends
// nothing), and that a link out of the folder or a .tandemignore'd file is
// not read.
import * as assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { expandPromptFile, loadPromptFiles, parsePromptFile, promptFileCommand } from '../../../src/tools/promptFiles';
import { fileWorkspaces } from './workspaceTestKit';

const workspace = fileWorkspaces('tandem-prompts-');

const noQuestions = async () => {
  throw new Error('nothing should be asked');
};

describe('prompt files', () => {
  it('are found in the three places, the first of a name wins, and the front matter gives the description', async () => {
    const root = workspace({
      '.github/prompts/review.prompt.md': '---\ndescription: "Review a file for bugs"\nmode: agent\n---\nReview ${input:file:a path} for bugs.\n',
      '.claude/commands/explain.md': 'Explain $ARGUMENTS in plain words.\n',
      '.claude/commands/review.md': 'A second review, shadowed by the first.\n',
      '.tandem/prompts/release-notes.md': 'Write release notes.\n',
      '.github/prompts/notes.txt': 'not a prompt file',
      '.claude/commands/has space.md': 'not a command name',
    });
    const files = await loadPromptFiles([{ path: root }]);
    assert.deepEqual(
      files.map((file) => [file.command, file.file, file.description, file.inputs, file.takesArguments]),
      [
        ['release-notes', '.tandem/prompts/release-notes.md', undefined, [], false],
        ['review', '.github/prompts/review.prompt.md', 'Review a file for bugs', ['file'], false],
        ['explain', '.claude/commands/explain.md', undefined, [], true],
      ],
    );
    assert.equal(files[1]?.body, 'Review ${input:file:a path} for bugs.', 'the front matter is not sent');
  });

  it('names the folder in a multi-root workspace, and the first folder keeps a name', async () => {
    const web = workspace({ '.claude/commands/test.md': 'Run the web tests.' });
    const api = workspace({ '.claude/commands/test.md': 'Run the api tests.', '.claude/commands/deploy.md': 'Deploy the api.' });
    const files = await loadPromptFiles([
      { path: web, name: 'web' },
      { path: api, name: 'api' },
    ]);
    assert.deepEqual(
      files.map((file) => [file.command, file.file, file.body]),
      [
        ['test', 'web/.claude/commands/test.md', 'Run the web tests.'],
        ['deploy', 'api/.claude/commands/deploy.md', 'Deploy the api.'],
      ],
    );
  });

  it('does not read a link out of the folder, nor what .tandemignore keeps out', async () => {
    const outside = workspace({ 'secret.md': 'SECRET-4471' });
    const root = workspace({ '.tandemignore': '.claude/commands/private.md\n', '.claude/commands/private.md': 'Private.', '.claude/commands/ok.md': 'Fine.' });
    symlinkSync(path.join(outside, 'secret.md'), path.join(root, '.claude/commands/leak.md'));
    const files = await loadPromptFiles([{ path: root }]);
    assert.deepEqual(
      files.map((file) => file.command),
      ['ok'],
    );
  });

  it('fills $ARGUMENTS with the words after the command, and keeps words a text has no place for', async () => {
    const explain = parsePromptFile('explain', 'x', 'Explain $ARGUMENTS. Then explain $ARGUMENTS again.');
    const found = promptFileCommand([explain], '/explain  the event queue ');
    assert.equal(found?.rest, 'the event queue');
    assert.equal(await expandPromptFile(explain, found!.rest, noQuestions), 'Explain the event queue. Then explain the event queue again.');
    const plain = parsePromptFile('notes', 'x', 'Write release notes.');
    assert.equal(await expandPromptFile(plain, '', noQuestions), 'Write release notes.');
    assert.equal(await expandPromptFile(plain, 'for 2.1', noQuestions), 'Write release notes.\n\nfor 2.1');
    assert.equal(promptFileCommand([plain], '/other thing'), undefined);
    assert.equal(promptFileCommand([plain], 'notes'), undefined, 'only at the start, after a slash');
  });

  it('fills ${input:…} from name=value words, asks for the rest with the hint, and a cancel sends nothing', async () => {
    const review = parsePromptFile('review', 'x', 'Review ${input:file:a path} for ${input:kind}. Focus on ${input:file}.');
    assert.deepEqual(review.inputs, ['file', 'kind']);
    const asked: [string, string | undefined][] = [];
    const text = await expandPromptFile(review, 'file="src/app.ts"', async (name, hint) => {
      asked.push([name, hint]);
      return 'races';
    });
    assert.deepEqual(asked, [['kind', undefined]]);
    assert.equal(text, 'Review src/app.ts for races. Focus on src/app.ts.');
    assert.equal(await expandPromptFile(review, '', async () => undefined), null);
    // A value that holds a placeholder is sent as typed, not filled in again.
    assert.equal(await expandPromptFile(review, 'file=${input:kind} kind=x', noQuestions), 'Review ${input:kind} for x. Focus on ${input:kind}.');
  });

  it("fills Copilot's editor variables from what the editor shows, empty where nothing is, and leaves unknown ones alone", async () => {
    const text = [
      'In ${workspaceFolderBasename} (${workspaceFolder}), file ${file}: ${fileBasename}, ${fileBasenameNoExtension} in ${fileDirname}.',
      'Selected: ${selection} / ${selectedText}. Unknown: ${env:HOME} ${lineNumber}.',
    ].join('\n');
    const fix = parsePromptFile('fix', 'x', text);
    const editor = { workspaceFolder: path.join(path.sep, 'work', 'shop'), file: 'src/cart/total.ts', selection: 'const a = $ARGUMENTS;' };
    assert.equal(
      await expandPromptFile(fix, '', noQuestions, editor),
      [
        `In shop (${editor.workspaceFolder}), file src/cart/total.ts: total.ts, total in src/cart.`,
        // The selection is sent as selected: a placeholder in it is not filled.
        'Selected: const a = $ARGUMENTS; / const a = $ARGUMENTS;. Unknown: ${env:HOME} ${lineNumber}.',
      ].join('\n'),
    );
    assert.equal(
      await expandPromptFile(fix, '', noQuestions, {}),
      'In  (), file : ,  in .\nSelected:  / . Unknown: ${env:HOME} ${lineNumber}.',
      'no editor open: nothing to fill in',
    );
  });

  it("reads the mode its front matter asks for: Copilot's mode (or agent) ask is Chat, agent and edit are Agent, anything else the panel's", () => {
    const modeOf = (frontMatter: string) => parsePromptFile('x', 'x', `---\n${frontMatter}\n---\nDo it.`).mode;
    assert.equal(modeOf('mode: ask'), 'chat');
    assert.equal(modeOf("agent: 'ask'\ndescription: Explain"), 'chat');
    assert.equal(modeOf('mode: "Agent"'), 'agent');
    assert.equal(modeOf('mode: edit'), 'agent');
    assert.equal(modeOf('agent: my-reviewer'), undefined, "a custom agent's name is not a mode here");
    assert.equal(modeOf('description: mode: ask'), undefined);
    assert.equal(parsePromptFile('x', 'x', 'mode: ask\nDo it.').mode, undefined, 'only in a front matter');
    assert.equal(parsePromptFile('x', 'x', "---\ndescription: 'Explain: briefly'\nmode: ask\n---\nDo it.").description, 'Explain: briefly');
  });

  it("reads Copilot's tools: as a list, the lines under it, or one line", () => {
    const toolsOf = (frontMatter: string) => parsePromptFile('x', 'x', `---\n${frontMatter}\n---\nDo it.`).tools;
    assert.deepEqual(toolsOf("tools: ['codebase', 'docs/*']"), ['codebase', 'docs/*']);
    assert.deepEqual(toolsOf('tools:\n  - read_file\n  - run_command'), ['read_file', 'run_command']);
    assert.deepEqual(toolsOf('tools: read_file, search'), ['read_file', 'search']);
    assert.deepEqual(toolsOf('tools: []'), [], 'no tools at all');
    assert.equal(toolsOf('description: no tools named'), undefined);
    assert.deepEqual(toolsOf("tools:\n  - 'fetch' # the web\nmode: ask"), ['fetch'], 'the list ends at the next key');
    assert.deepEqual(toolsOf('description: a list\n  tools: [nested]'), undefined, 'only a key at the top level');
    const unclosed = parsePromptFile('x', 'x', '---\ntools: [read_file\n---\nStill the body.');
    assert.deepEqual(unclosed.tools, ['read_file']);
    assert.equal(unclosed.body, 'Still the body.');
  });
});

