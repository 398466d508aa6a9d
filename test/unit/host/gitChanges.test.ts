// The Git changes chip: a real repository's diff (made with git), cut per file,
// and its new files; each file under the tools' rules; what a rule excludes is
// named, never sent.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gitChangesAttachment } from '../../../src/host/contextItems';
import { CONTEXT_ITEM_MAX_CHARS } from '../../../src/tools/contextContent';
import { diffSections, filteredDiff, type RepositoryDiff } from '../../../src/tools/diffContent';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import { makeTempDir } from '../tools/workspaceTestKit';

describe('Git changes', () => {
  let root: string;
  let host: NodeWorkspaceHost;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const untracked = () => git('ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean).map((file) => path.join(root, file));
  const diffs = (): RepositoryDiff[] => [{ root, staged: git('diff', '--cached'), unstaged: git('diff'), untracked: untracked() }];

  before(() => {
    root = makeTempDir('tandem-git-changes-');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'app.ts'), 'export const owner = "Ada";\n');
    writeFileSync(path.join(root, 'src', 'old name.ts'), 'export const gone = true;\n');
    writeFileSync(path.join(root, 'secrets.env'), 'TOKEN=first\n');
    writeFileSync(path.join(root, 'notes.md'), '# Notes\n');
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'start');
    // Excluded only now: a tracked file the user keeps away from the agent.
    writeFileSync(path.join(root, '.tandemignore'), 'secrets.env\n*.key\n');
    writeFileSync(path.join(root, 'src', 'new.ts'), 'export const added = "NEW-FILE-MARKER";\n');
    writeFileSync(path.join(root, 'deploy.key'), 'PRIVATE-KEY-MARKER\n');
    writeFileSync(path.join(root, 'src', 'app.ts'), 'export const owner = "Grace";\n');
    writeFileSync(path.join(root, 'secrets.env'), 'TOKEN=second-secret\n');
    unlinkSync(path.join(root, 'src', 'old name.ts'));
    writeFileSync(path.join(root, 'notes.md'), '# Notes\n\nShip on Friday.\n');
    git('add', 'notes.md');
    host = new NodeWorkspaceHost({ folders: [root] });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('cuts a diff per file, a path with a space included', () => {
    assert.deepEqual(diffSections(git('diff')).map((section) => section.file), ['secrets.env', 'src/app.ts', 'src/old name.ts']);
  });

  it('sends staged and unstaged changes, a deleted file and new files too; an excluded file is named as left out, its content never sent', async () => {
    const text = await gitChangesAttachment(host, async () => diffs()).read(new AbortController().signal);
    assert.match(text, /^Attached Git changes/);
    assert.match(text, /# Staged[\s\S]*\+Ship on Friday\./);
    assert.match(text, /# Not staged[\s\S]*-export const owner = "Ada";\n\+export const owner = "Grace";/);
    assert.match(text, /deleted file mode[\s\S]*-export const gone = true;/);
    assert.match(text, /\[changes to secrets\.env left out: secrets\.env is excluded by \.tandemignore/);
    assert.doesNotMatch(text, /second-secret|TOKEN=/);
    // New files are in no diff: they follow, with their text, under the same rules.
    assert.match(text, /# Not tracked yet[\s\S]*new file src\/new\.ts:\nexport const added = "NEW-FILE-MARKER";/);
    assert.match(text, /\[new file deploy\.key left out: deploy\.key is excluded by \.tandemignore/);
    assert.doesNotMatch(text, /PRIVATE-KEY-MARKER/);
  });

  it('many new files: the diff stays whole, the new files fill what is left and the rest are named', async () => {
    const many = Array.from({ length: 8 }, (_, index) => path.join(root, 'src', `generated-${index}.ts`));
    for (const file of many) writeFileSync(file, `// ${path.basename(file)}\n${'x'.repeat(5_000)}\n`);
    try {
      const body = await filteredDiff(host, diffs());
      assert.ok(body.length <= CONTEXT_ITEM_MAX_CHARS, `within the item's budget, so the item is not cut in the middle: ${body.length}`);
      assert.match(body, /\+export const owner = "Grace";/, 'the diff is whole');
      assert.match(body, /new file src\/generated-0\.ts:\n\/\/ generated-0\.ts/, 'the first new files are shown');
      assert.match(body, /\[\d+ more new files not shown, the item being full \(attach one to include it\): [^\]]*src\/generated-7\.ts[^\]]*\]/);
    } finally {
      for (const file of many) unlinkSync(file);
    }
  });

  it('a large diff: whole files while they fit, the next cut at a line, the rest named; never cut in the middle of the item', async () => {
    const big = makeTempDir('tandem-git-large-');
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: big, encoding: 'utf8' });
    const lines = (marker: string) => Array.from({ length: 40 }, (_, line) => `${marker} line ${line} ${'.'.repeat(40)}`).join('\n') + '\n';
    try {
      const files = Array.from({ length: 8 }, (_, index) => `part-${index}.txt`);
      for (const file of files) writeFileSync(path.join(big, file), lines(`${file} old`));
      run('init', '-q');
      run('add', '.');
      run('commit', '-qm', 'start');
      for (const file of files) writeFileSync(path.join(big, file), lines(`${file} new`));
      const body = await filteredDiff(new NodeWorkspaceHost({ folders: [big] }), [{ root: big, staged: '', unstaged: run('diff'), untracked: [] }]);
      assert.ok(body.length <= CONTEXT_ITEM_MAX_CHARS, `within the item's budget: ${body.length}`);
      // Each file's changes are ~5,300 characters: two whole, the third cut at a line, the rest named.
      assert.match(body, /\+part-0\.txt new line 39 \.+\n/);
      assert.match(body, /\+part-1\.txt new line 39 \.+\n/);
      assert.match(body, /diff --git a\/part-2\.txt b\/part-2\.txt[\s\S]*\n\[… \d+ more lines of this file's changes not shown, the item being full\]/);
      assert.doesNotMatch(body, /part-2\.txt new line 39/);
      assert.match(body, /\[changes to 5 more files not shown, the item being full: part-3\.txt, part-4\.txt, part-5\.txt, part-6\.txt, part-7\.txt\]/);
      assert.doesNotMatch(body, /part-[3-7]\.txt (old|new) line/);
      // Every line shown is a whole line of the diff.
      const diffLines = new Set(run('diff').split('\n'));
      for (const line of body.split('\n')) assert.ok(diffLines.has(line) || /^(#|\[)/.test(line), `a whole line: ${line}`);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  it('many excluded files in a full item: their left-out lines give way to one list of names, so the item stays within its cap', async () => {
    const big = makeTempDir('tandem-git-excluded-');
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: big, encoding: 'utf8' });
    try {
      const secrets = Array.from({ length: 400 }, (_, index) => `credentials/service-account-${String(index).padStart(3, '0')}.key`);
      mkdirSync(path.join(big, 'credentials'));
      for (const file of secrets) writeFileSync(path.join(big, file), 'old\n');
      writeFileSync(path.join(big, 'a.txt'), 'old\n');
      run('init', '-q');
      run('add', '.');
      run('commit', '-qm', 'start');
      writeFileSync(path.join(big, '.tandemignore'), '*.key\n');
      for (const file of secrets) writeFileSync(path.join(big, file), 'new secret\n');
      writeFileSync(path.join(big, 'a.txt'), 'new\n');
      const body = await filteredDiff(new NodeWorkspaceHost({ folders: [big] }), [{ root: big, staged: '', unstaged: run('diff'), untracked: [] }]);
      assert.ok(body.length <= CONTEXT_ITEM_MAX_CHARS, `within the item's budget: ${body.length}`);
      assert.match(body, /\+new\n/, "the kept file's change");
      assert.match(body, /\[changes to credentials\/service-account-000\.key left out: .*excluded by \.tandemignore/);
      assert.match(body, /\[changes to \d+ more files left out \(excluded or outside the workspace\): credentials\/service-account-\d+\.key, .*, … \(\d+ more\)\]/);
      assert.doesNotMatch(body, /new secret/);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  it('says plainly when there is nothing to send or Git cannot be asked', async () => {
    const read = (repositories: () => Promise<RepositoryDiff[]>) => gitChangesAttachment(host, repositories).read(new AbortController().signal);
    assert.match(await read(async () => []), /no Git repository is open/);
    assert.match(await read(async () => [{ root, staged: '', unstaged: '', untracked: [] }]), /there are no uncommitted changes/);
    assert.match(
      await read(async () => {
        throw new Error('Git is turned off in VS Code (git.enabled)');
      }),
      /none could be read \(Git is turned off/,
    );
  });
});
