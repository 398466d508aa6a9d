// Sensitive paths always ask; after approval the path is checked again and a
// symbolic link swapped in meanwhile is refused; ignored files refuse writes
// as they refuse reads.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync, linkSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPolicyApprovalGate, needsAsking } from '../../../src/agent/policyApprovalGate';
import { DEFAULT_SENSITIVE_PATHS, SensitivePaths } from '../../../src/tools/sensitivePaths';
import type { ApprovalGate, ApprovalRequest, ToolContext } from '../../../src/tools/tool';
import { makeKit, makeTempDir, type Kit } from './workspaceTestKit';

describe('SensitivePaths', () => {
  const rules = new SensitivePaths();
  it('matches every path of the built-in list', () => {
    assert.equal(DEFAULT_SENSITIVE_PATHS.length, 13);
    for (const sensitive of [
      '.vscode/settings.json',
      '.vscode/mcp.json',
      '.vscode/tasks.json',
      '.github/workflows/ci.yml',
      '.env',
      '.env.local',
      'api/.env.production',
      '.husky/pre-commit',
      '.devcontainer/devcontainer.json',
      'team.code-workspace',
      '.npmrc',
      '.VSCode/Settings.json',
      // What keeps files from the agent, and what joins its system prompt.
      '.gitignore',
      'src/.gitignore',
      '.tandemignore',
      'AGENTS.md',
      'packages/web/AGENTS.md',
      '.github/copilot-instructions.md',
      '.github/instructions/api.instructions.md',
      '.tandem/rules/style.md',
    ]) {
      assert.ok(rules.matches(sensitive), sensitive);
    }
  });
  it('leaves ordinary files alone', () => {
    for (const plain of ['src/app.ts', 'README.md', '.github/ISSUE_TEMPLATE.md', 'environment.ts', 'docs/vscode/notes.md', '.', '']) {
      assert.equal(rules.matches(plain), false, plain);
    }
  });
  it('a folder is sensitive when what it would hold is', () => {
    assert.ok(rules.matches('.vscode', true));
    assert.ok(rules.matches('.github/workflows', true));
    assert.equal(rules.matches('.github', true), false);
  });
  it('adds the user globs; a malformed one is skipped, the defaults stay', () => {
    const extra = new SensitivePaths(['deploy/**', '*.pem', '\\']);
    assert.ok(extra.matches('deploy/prod.yaml'));
    assert.ok(extra.matches('keys/server.pem'));
    assert.ok(extra.matches('.vscode/settings.json'));
    assert.equal(extra.matches('src/app.ts'), false);
  });

  it('extra globs only add: a negation from any scope (a workspace\'s "!**") takes nothing off the list', () => {
    const negated = new SensitivePaths(['!**', ' !.*', '!.*/**', 'AGENTS.md']);
    for (const file of ['.vscode/tasks.json', '.husky/pre-commit', '.github/workflows/ci.yml', '.env', '.gitignore', 'AGENTS.md']) {
      assert.ok(negated.matches(file), file);
    }
  });
});

describe('sensitive writes always ask', () => {
  let kit: Kit;
  const asked: ApprovalRequest[] = [];
  const gate = (policy: Parameters<typeof createPolicyApprovalGate>[0], answer: boolean): ApprovalGate =>
    createPolicyApprovalGate(policy, async (request) => {
      asked.push(request);
      return answer;
    });
  const context = (approval: ApprovalGate): ToolContext => ({ runId: 'run-1', callId: 'call-1', signal: new AbortController().signal, approval });
  const tool = (name: string) => kit.tools.find((candidate) => candidate.name === name)!;

  beforeEach(() => {
    kit = makeKit();
    asked.length = 0;
  });
  afterEach(() => kit.dispose());

  it('with autoApprove all and an always-allow entry, .vscode, .env and a user glob still ask; rejecting changes nothing', async () => {
    mkdirSync(path.join(kit.root, '.vscode'));
    writeFileSync(path.join(kit.root, '.vscode', 'settings.json'), '{}\n');
    const approval = gate({ autoApprove: 'all', alwaysAllow: ['write_file', 'edit_file', 'create_directory'] }, false);
    for (const target of ['.vscode/settings.json', '.vscode/mcp.json', '.env', '.github/workflows/ci.yml']) {
      const result = await tool('write_file').run({ path: target, content: 'evil' }, context(approval));
      assert.match(result.text, /rejected/u, target);
    }
    const edit = await tool('edit_file').run({ path: '.vscode/settings.json', edits: [{ oldText: '{}', newText: '{"x":1}' }] }, context(approval));
    assert.match(edit.text, /rejected/u);
    const folder = await tool('create_directory').run({ path: '.husky' }, context(approval));
    assert.match(folder.text, /rejected/u);
    assert.equal(asked.length, 6);
    assert.ok(asked.every((request) => request.sensitive === true));
    assert.equal(readFileSync(path.join(kit.root, '.vscode', 'settings.json'), 'utf8'), '{}\n');
    for (const missing of ['.vscode/mcp.json', '.env', '.github', '.husky']) assert.equal(existsSync(path.join(kit.root, missing)), false, missing);
    // An ordinary file goes through unasked under the same policy.
    const plain = await tool('write_file').run({ path: 'src/ok.ts', content: 'ok' }, context(approval));
    assert.match(plain.text, /^Created/u);
    assert.equal(asked.length, 6);
  });

  it('a link to .vscode under another name is still sensitive', async () => {
    mkdirSync(path.join(kit.root, '.vscode'));
    symlinkSync(path.join(kit.root, '.vscode'), path.join(kit.root, 'config'));
    await tool('write_file').run({ path: 'config/tasks.json', content: '{}' }, context(gate('all', false)));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.sensitive, true);
  });

  it('tandem.tools.sensitivePaths adds globs (through the host)', async () => {
    const custom = makeKit({ sensitivePaths: ['deploy/**'] });
    try {
      const deploy = custom.tools.find((candidate) => candidate.name === 'write_file')!;
      await deploy.run({ path: 'deploy/prod.yaml', content: 'x' }, context(gate('all', false)));
      assert.equal(asked.length, 1);
      assert.equal(existsSync(path.join(custom.root, 'deploy')), false);
    } finally {
      custom.dispose();
    }
  });

  it('needsAsking: sensitive and delete always ask; alwaysAllow beats readOnly; a tool may match its own keys', () => {
    const write: ApprovalRequest = { kind: 'edit', toolName: 'write_file', path: '/w/a', before: undefined, after: 'x' };
    assert.equal(needsAsking(write, { autoApprove: 'readOnly', alwaysAllow: ['write_file'] }), false);
    assert.equal(needsAsking(write, { autoApprove: 'readOnly', alwaysAllow: [] }), true);
    assert.equal(needsAsking({ ...write, sensitive: true }, { autoApprove: 'all', alwaysAllow: ['write_file'] }), true);
    assert.equal(needsAsking({ ...write, toolName: 'delete_file', after: undefined }, { autoApprove: 'all', alwaysAllow: ['delete_file'] }), true);
    const command: ApprovalRequest = {
      kind: 'toolCall',
      toolName: 'run_command',
      arguments: { command: 'git status' },
      readOnly: false,
      allowedBy: (entries) => entries.some((entry) => entry.startsWith('run_command:') && 'git status'.startsWith(entry.slice('run_command:'.length))),
    };
    assert.equal(needsAsking(command, { autoApprove: 'none', alwaysAllow: ['run_command:git'] }), false);
    assert.equal(needsAsking(command, { autoApprove: 'readOnly', alwaysAllow: ['run_command:npm'] }), true);
    assert.equal(needsAsking(command, { autoApprove: 'readOnly', alwaysAllow: ['run_command'] }), true, 'the tool decides, not the bare name');
  });
});

describe('scope re-check after approval', () => {
  let kit: Kit;
  let outside: string;
  const tool = (name: string) => kit.tools.find((candidate) => candidate.name === name)!;
  /** Approves after doing `meanwhile` (what an attacker does while the user reads the diff). */
  const approveAfter = (meanwhile: () => void): ToolContext => ({
    runId: 'run-1',
    callId: 'call-1',
    signal: new AbortController().signal,
    approval: {
      request: async () => {
        meanwhile();
        return true;
      },
    },
  });

  beforeEach(() => {
    kit = makeKit();
    outside = makeTempDir('tandem-outside-');
  });
  afterEach(() => {
    kit.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  it('a new file whose parent folder became a link to outside is not written', async () => {
    mkdirSync(path.join(kit.root, 'out'));
    const result = await tool('write_file').run(
      { path: 'out/secret.txt', content: 'written' },
      approveAfter(() => {
        rmSync(path.join(kit.root, 'out'), { recursive: true });
        symlinkSync(outside, path.join(kit.root, 'out'));
      }),
    );
    assert.match(result.text, /symbolic link.*nothing was written/u);
    assert.equal(existsSync(path.join(outside, 'secret.txt')), false);
  });

  it('an existing file swapped for a link (to outside, or inside with the same text) is not written', async () => {
    const target = path.join(kit.root, 'notes.txt');
    writeFileSync(target, 'same\n');
    writeFileSync(path.join(outside, 'victim.txt'), 'same\n');
    const result = await tool('write_file').run(
      { path: 'notes.txt', content: 'changed\n' },
      approveAfter(() => {
        rmSync(target);
        symlinkSync(path.join(outside, 'victim.txt'), target);
      }),
    );
    assert.match(result.text, /nothing was written/u);
    assert.equal(readFileSync(path.join(outside, 'victim.txt'), 'utf8'), 'same\n');

    writeFileSync(path.join(kit.root, 'twin.txt'), 'twin\n');
    writeFileSync(path.join(kit.root, 'local.txt'), 'twin\n');
    const inside = await tool('edit_file').run(
      { path: 'local.txt', edits: [{ oldText: 'twin', newText: 'TWIN' }] },
      approveAfter(() => {
        rmSync(path.join(kit.root, 'local.txt'));
        symlinkSync(path.join(kit.root, 'twin.txt'), path.join(kit.root, 'local.txt'));
      }),
    );
    assert.match(inside.text, /nothing was written/u);
    assert.equal(readFileSync(path.join(kit.root, 'twin.txt'), 'utf8'), 'twin\n');
  });

  it('a file that gained a hard link, and a delete through a swapped link, are refused', async () => {
    writeFileSync(path.join(kit.root, 'hard.txt'), 'h\n');
    const hard = await tool('write_file').run(
      { path: 'hard.txt', content: 'x\n' },
      approveAfter(() => linkSync(path.join(kit.root, 'hard.txt'), path.join(outside, 'hard-twin.txt'))),
    );
    assert.match(hard.text, /hard link.*nothing was written/u);
    assert.equal(readFileSync(path.join(outside, 'hard-twin.txt'), 'utf8'), 'h\n');

    mkdirSync(path.join(kit.root, 'd'));
    writeFileSync(path.join(kit.root, 'd', 'gone.txt'), 'g\n');
    writeFileSync(path.join(outside, 'gone.txt'), 'g\n');
    const deleted = await tool('delete_file').run(
      { path: 'd/gone.txt' },
      approveAfter(() => {
        rmSync(path.join(kit.root, 'd'), { recursive: true });
        symlinkSync(outside, path.join(kit.root, 'd'));
      }),
    );
    assert.match(deleted.text, /nothing was written/u);
    assert.equal(existsSync(path.join(outside, 'gone.txt')), true);
  });

  it('create_directory re-checks too', async () => {
    mkdirSync(path.join(kit.root, 'parent'));
    const result = await tool('create_directory').run(
      { path: 'parent/child' },
      approveAfter(() => {
        rmSync(path.join(kit.root, 'parent'), { recursive: true });
        symlinkSync(outside, path.join(kit.root, 'parent'));
      }),
    );
    assert.match(result.text, /nothing was written/u);
    assert.equal(existsSync(path.join(outside, 'child')), false);
  });

  it('paths that escape are refused before anything is asked', async () => {
    symlinkSync(outside, path.join(kit.root, 'escape'));
    let asked = 0;
    const context: ToolContext = { runId: 'r', callId: 'c', signal: new AbortController().signal, approval: { request: async () => (asked++, true) } };
    for (const escaping of ['../x.txt', 'escape/x.txt', `${outside}/x.txt`, 'a/../../x.txt']) {
      const result = await tool('write_file').run({ path: escaping, content: 'x' }, context);
      assert.match(result.text, /^Error: Refused path/u, escaping);
    }
    assert.equal(asked, 0);
    assert.equal(existsSync(path.join(outside, 'x.txt')), false);
  });
});

describe('files ignored by .gitignore refuse writes', () => {
  let kit: Kit;
  beforeEach(() => {
    kit = makeKit();
    writeFileSync(path.join(kit.root, '.gitignore'), '.env\nsecrets/\n');
    writeFileSync(path.join(kit.root, '.env'), 'API_KEY=hunter2\n');
  });
  afterEach(() => kit.dispose());

  it('the same refusal whether the guess is right, wrong, or the file does not exist', async () => {
    const answers = [
      await kit.run('write_file', { path: '.env', content: 'API_KEY=hunter2\n' }),
      await kit.run('write_file', { path: '.env', content: 'API_KEY=wrong\n' }),
      await kit.run('edit_file', { path: '.env', edits: [{ oldText: 'hunter2', newText: 'x' }] }),
      await kit.run('edit_file', { path: '.env', edits: [{ oldText: 'not there', newText: 'x' }] }),
      await kit.run('delete_file', { path: '.env' }),
    ];
    for (const answer of answers) assert.equal(answer.text, 'Error: .env is excluded by .gitignore, so the agent may not write it.');
    const absent = await kit.run('write_file', { path: 'secrets/new.txt', content: 'x' });
    const present = (mkdirSync(path.join(kit.root, 'secrets')), writeFileSync(path.join(kit.root, 'secrets', 'old.txt'), 'x'), await kit.run('write_file', { path: 'secrets/old.txt', content: 'x' }));
    assert.match(absent.text, /^Error: secrets\/new\.txt is excluded by \.gitignore/u);
    assert.match(present.text, /^Error: secrets\/old\.txt is excluded by \.gitignore/u);
    assert.equal(kit.approval.asked.length, 0);
    assert.equal(readFileSync(path.join(kit.root, '.env'), 'utf8'), 'API_KEY=hunter2\n');
  });
});
