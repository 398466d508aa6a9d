// Rules files read from a real folder: defaults, wildcards, caps, and paths
// that try to leave the folder.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/agent/agentSettings';
import { rulesNotice } from '../../../src/agent/rules';
import { loadRulesFiles, RULE_FILE_BYTE_LIMIT, RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT } from '../../../src/tools/rulesFiles';

describe('rules files', () => {
  let root: string;
  let folder: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-rules-'));
    folder = path.join(root, 'repo');
    await mkdir(path.join(folder, '.github'), { recursive: true });
    await mkdir(path.join(folder, '.tandem', 'rules'), { recursive: true });
    await writeFile(path.join(folder, 'AGENTS.md'), 'Use tabs.\n');
    await writeFile(path.join(folder, 'CLAUDE.md'), 'Use tabs.\n\n');
    await writeFile(path.join(folder, '.cursorrules'), 'Prefer small functions.');
    await mkdir(path.join(folder, '.clinerules'));
    await writeFile(path.join(folder, '.clinerules', 'style.md'), 'Name things plainly.');
    await writeFile(path.join(folder, '.github', 'copilot-instructions.md'), 'Write tests first.');
    await writeFile(path.join(folder, '.tandem', 'rules', 'b.md'), 'Rule B');
    await writeFile(path.join(folder, '.tandem', 'rules', 'a.md'), 'Rule A');
    await writeFile(path.join(folder, '.tandem', 'rules', 'notes.txt'), 'not a rule');
    await writeFile(path.join(folder, '.tandem', 'rules', 'empty.md'), '   \n');
    await writeFile(path.join(root, 'secret.md'), 'outside the folder');
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('reads the default list in order, wildcards sorted, skipping empty and non-matching files and copies of one read before', async () => {
    const rules = await loadRulesFiles([{ folder, label: '' }], DEFAULT_RULES_FILES);
    assert.deepEqual(
      rules.map((rule) => [rule.path, rule.text]),
      [
        ['AGENTS.md', 'Use tabs.\n'],
        ['.github/copilot-instructions.md', 'Write tests first.'],
        ['.clinerules/style.md', 'Name things plainly.'],
        ['.cursorrules', 'Prefer small functions.'],
        ['.tandem/rules/a.md', 'Rule A'],
        ['.tandem/rules/b.md', 'Rule B'],
      ],
    );
  });

  it('labels files by folder in a multi-root workspace and reads each file once', async () => {
    const rules = await loadRulesFiles([{ folder, label: 'repo' }], ['AGENTS.md', './AGENTS.md', '*.md']);
    assert.deepEqual(rules.map((rule) => rule.path), ['repo/AGENTS.md']);
  });

  it('never reads outside the folder', async () => {
    const rules = await loadRulesFiles([{ folder, label: '' }], ['../secret.md', '/etc/hostname', '../*.md', '**/secret.md']);
    assert.deepEqual(rules, []);
  });

  it('never reads through a link that leaves the folder, nor what .tandemignore keeps out (a .gitignored rules file is the user\'s own)', async () => {
    const repo = path.join(root, 'linked');
    await mkdir(path.join(repo, '.tandem', 'rules'), { recursive: true });
    await mkdir(path.join(repo, 'private'), { recursive: true });
    // A committed link to a key of the user's, and one per wildcard match, each leaving the folder.
    await symlink(path.join(root, 'secret.md'), path.join(repo, 'AGENTS.md'));
    await symlink(path.join('..', '..', '..', 'secret.md'), path.join(repo, '.tandem', 'rules', 'up.md'));
    await writeFile(path.join(repo, '.tandem', 'rules', 'ok.md'), 'Rule inside');
    // Kept out by .tandemignore, by its own path or through a link to it.
    await writeFile(path.join(repo, '.tandemignore'), 'private/\n');
    await writeFile(path.join(repo, 'private', 'notes.md'), 'private notes');
    await symlink(path.join('private', 'notes.md'), path.join(repo, 'CLAUDE.md'));
    await writeFile(path.join(repo, '.gitignore'), 'CLAUDE.local.md\n');
    await writeFile(path.join(repo, 'CLAUDE.local.md'), 'My own rules');
    const rules = await loadRulesFiles([{ folder: repo, label: '' }], ['AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md', 'private/notes.md', '.tandem/rules/*.md']);
    assert.deepEqual(
      rules.map((rule) => [rule.path, rule.text]),
      [
        ['CLAUDE.local.md', 'My own rules'],
        ['.tandem/rules/ok.md', 'Rule inside'],
      ],
    );
  });

  it('caps a huge file and the total', async () => {
    const big = path.join(root, 'big');
    await mkdir(big);
    for (const name of ['one.md', 'two.md', 'three.md', 'four.md']) await writeFile(path.join(big, name), `${name} `.padEnd(RULE_FILE_CHAR_LIMIT + 500, 'x'));
    const rules = await loadRulesFiles([{ folder: big, label: '' }], ['*.md']);
    assert.equal(rules.length, RULES_TOTAL_CHAR_LIMIT / RULE_FILE_CHAR_LIMIT);
    for (const rule of rules) assert.match(rule.text, /\[\.\.\. 500 more characters not shown\]$/);
    assert.equal(rulesNotice(rules.slice(0, 1)), `Rules: four.md (the first 16,000 of ${(RULE_FILE_CHAR_LIMIT + 500).toLocaleString('en-US')} characters)`);
  });

  it('reads only the start of a rules file past RULE_FILE_BYTE_LIMIT, cut on a whole character, and says its size', async () => {
    const huge = path.join(root, 'huge');
    await mkdir(huge);
    // One byte, then two-byte characters: the limit (an even offset) falls inside one.
    const start = Buffer.from(`a${'é'.repeat(RULE_FILE_BYTE_LIMIT)}`, 'utf8');
    await writeFile(path.join(huge, 'AGENTS.md'), start);
    // 600 MB on disk in a sparse file: read whole, it could not even be made one string.
    await truncate(path.join(huge, 'AGENTS.md'), 600 * 1024 * 1024);
    const started = Date.now();
    const rules = await loadRulesFiles([{ folder: huge, label: '' }], ['AGENTS.md']);
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
    assert.equal(rules.length, 1);
    assert.equal(rules[0]!.text, `a${'é'.repeat(RULE_FILE_CHAR_LIMIT - 1)}\n[... the rest of this 600 MB file not shown]`);
    assert.equal(rulesNotice(rules), 'Rules: AGENTS.md (the first 16,000 characters of 600 MB)');
  });

  it('reads a rules file in its own encoding (UTF-16 from PowerShell, a BOM), and a binary one is no rules', async () => {
    const encoded = path.join(root, 'encoded');
    await mkdir(encoded);
    await writeFile(path.join(encoded, 'AGENTS.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Use tabs. Ünïcode stays.\r\n', 'utf16le')]));
    await writeFile(path.join(encoded, 'b.md'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Rule B', 'utf8')]));
    await writeFile(path.join(encoded, 'c.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const rules = await loadRulesFiles([{ folder: encoded, label: '' }], ['AGENTS.md', '*.md']);
    assert.deepEqual(
      rules.map((rule) => [rule.path, rule.text]),
      [
        ['AGENTS.md', 'Use tabs. Ünïcode stays.\r\n'],
        ['b.md', 'Rule B'],
      ],
    );
  });

  it('a missing folder or file is no rules, not an error', async () => {
    assert.deepEqual(await loadRulesFiles([{ folder: path.join(root, 'missing'), label: '' }], DEFAULT_RULES_FILES), []);
  });
});
