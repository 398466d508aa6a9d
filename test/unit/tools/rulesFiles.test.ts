// Rules files read from a real folder: defaults, wildcards, caps, and paths
// that try to leave the folder.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/agent/agentSettings';
import { loadRulesFiles, RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT } from '../../../src/tools/rulesFiles';

describe('rules files', () => {
  let root: string;
  let folder: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-rules-'));
    folder = path.join(root, 'repo');
    await mkdir(path.join(folder, '.github'), { recursive: true });
    await mkdir(path.join(folder, '.tandem', 'rules'), { recursive: true });
    await writeFile(path.join(folder, 'AGENTS.md'), 'Use tabs.\n');
    await writeFile(path.join(folder, '.github', 'copilot-instructions.md'), 'Write tests first.');
    await writeFile(path.join(folder, '.tandem', 'rules', 'b.md'), 'Rule B');
    await writeFile(path.join(folder, '.tandem', 'rules', 'a.md'), 'Rule A');
    await writeFile(path.join(folder, '.tandem', 'rules', 'notes.txt'), 'not a rule');
    await writeFile(path.join(folder, '.tandem', 'rules', 'empty.md'), '   \n');
    await writeFile(path.join(root, 'secret.md'), 'outside the folder');
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('reads the default list in order, wildcards sorted, skipping empty and non-matching files', async () => {
    const rules = await loadRulesFiles([{ folder, label: '' }], DEFAULT_RULES_FILES);
    assert.deepEqual(
      rules.map((rule) => [rule.path, rule.text]),
      [
        ['AGENTS.md', 'Use tabs.\n'],
        ['.github/copilot-instructions.md', 'Write tests first.'],
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

  it('caps a huge file and the total', async () => {
    const big = path.join(root, 'big');
    await mkdir(big);
    for (const name of ['one.md', 'two.md', 'three.md', 'four.md']) await writeFile(path.join(big, name), 'x'.repeat(RULE_FILE_CHAR_LIMIT + 500));
    const rules = await loadRulesFiles([{ folder: big, label: '' }], ['*.md']);
    assert.equal(rules.length, RULES_TOTAL_CHAR_LIMIT / RULE_FILE_CHAR_LIMIT);
    for (const rule of rules) assert.match(rule.text, /\[\.\.\. 500 more characters not shown\]$/);
  });

  it('a missing folder or file is no rules, not an error', async () => {
    assert.deepEqual(await loadRulesFiles([{ folder: path.join(root, 'missing'), label: '' }], DEFAULT_RULES_FILES), []);
  });
});
