// Nested rules files found in a real folder tree: the nearest AGENTS.md above
// a touched file, which list entries are looked up that way, the workspace
// boundary (a symlink out of it is not read), and the run's bookkeeping (each
// file joins once, the total cap holds).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/agent/agentSettings';
import { RunRules } from '../../../src/agent/runRules';
import { createNestedRulesFinder, nestedRuleNames, type NestedRulesFinder } from '../../../src/tools/nestedRules';
import { RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT } from '../../../src/tools/rulesFiles';

describe('nested rules files', () => {
  let root: string;
  let repo: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-nested-rules-'));
    repo = path.join(root, 'repo');
    await mkdir(path.join(repo, 'packages', 'api', 'src', 'deep'), { recursive: true });
    await mkdir(path.join(repo, 'packages', 'web', 'src'), { recursive: true });
    await mkdir(path.join(repo, 'packages', 'linked'), { recursive: true });
    await mkdir(path.join(repo, 'packages', 'empty'), { recursive: true });
    await writeFile(path.join(repo, 'AGENTS.md'), 'Root rules.');
    await writeFile(path.join(repo, 'packages', 'api', 'AGENTS.md'), 'API rules: NESTED-API');
    await writeFile(path.join(repo, 'packages', 'api', 'CLAUDE.md'), 'Claude rules for the API.');
    await writeFile(path.join(repo, 'packages', 'api', 'src', 'deep', 'handler.ts'), 'export {};');
    await writeFile(path.join(repo, 'packages', 'web', 'src', 'app.ts'), 'export {};');
    await writeFile(path.join(repo, 'packages', 'empty', 'AGENTS.md'), '  \n');
    await writeFile(path.join(repo, 'packages', 'empty', 'x.ts'), '');
    await writeFile(path.join(root, 'outside.md'), 'SECRET outside the workspace');
    await symlink(path.join(root, 'outside.md'), path.join(repo, 'packages', 'linked', 'AGENTS.md'));
    await writeFile(path.join(repo, 'packages', 'linked', 'y.ts'), '');
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('looks up bare file names only: entries with a folder or a wildcard stay at the root', () => {
    assert.deepEqual(nestedRuleNames(DEFAULT_RULES_FILES), ['AGENTS.md', 'CLAUDE.md', '.clinerules', '.cursorrules']);
    assert.deepEqual(nestedRuleNames(['./CLAUDE.md', 'AGENTS.md', 'AGENTS.md', 'docs/RULES.md', '*.rules', '..']), ['CLAUDE.md', 'AGENTS.md']);
  });

  it('finds the nearest file of each name above a file, not the ones further up', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: '' }], DEFAULT_RULES_FILES);
    const found = await finder.rulesFor(path.join(repo, 'packages', 'api', 'src', 'deep', 'handler.ts'));
    assert.deepEqual(found, [
      { rule: { path: 'packages/api/AGENTS.md', text: 'API rules: NESTED-API' }, near: 'packages/api/src/deep/handler.ts' },
      { rule: { path: 'packages/api/CLAUDE.md', text: 'Claude rules for the API.' }, near: 'packages/api/src/deep/handler.ts' },
    ]);
  });

  it('falls back to the root file where no nested one is nearer (the run already has it)', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: '' }], DEFAULT_RULES_FILES);
    const found = await finder.rulesFor(path.join(repo, 'packages', 'web', 'src', 'app.ts'));
    assert.deepEqual(found.map((nested) => nested.rule.path), ['AGENTS.md']);
  });

  it('looks up every bare name of the list, labelled by folder in a multi-root workspace', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: 'repo' }], ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']);
    const found = await finder.rulesFor(path.join(repo, 'packages', 'api', 'src', 'deep', 'handler.ts'));
    assert.deepEqual(found.map((nested) => [nested.rule.path, nested.near]), [
      ['repo/packages/api/AGENTS.md', 'repo/packages/api/src/deep/handler.ts'],
      ['repo/packages/api/CLAUDE.md', 'repo/packages/api/src/deep/handler.ts'],
    ]);
  });

  it('never reads outside the workspace folder: files elsewhere, symlinks out; an empty file is skipped', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: '' }], DEFAULT_RULES_FILES);
    assert.deepEqual(await finder.rulesFor(path.join(root, 'outside.md')), []);
    const linked = await finder.rulesFor(path.join(repo, 'packages', 'linked', 'y.ts'));
    assert.deepEqual(linked.map((nested) => nested.rule.path), ['AGENTS.md'], 'the symlinked AGENTS.md is passed over for the root one');
    assert.ok(!linked.some((nested) => nested.rule.text.includes('SECRET')));
    const empty = await finder.rulesFor(path.join(repo, 'packages', 'empty', 'x.ts'));
    assert.deepEqual(empty, [], 'the nearest file is empty: nothing joins, and the search stops there');
  });

  it('never reads what .tandemignore keeps out, the root file included', async () => {
    const kept = path.join(root, 'kept');
    await mkdir(path.join(kept, 'private', 'src'), { recursive: true });
    await mkdir(path.join(kept, 'src'), { recursive: true });
    await writeFile(path.join(kept, '.tandemignore'), 'AGENTS.md\nprivate/\n');
    await writeFile(path.join(kept, 'AGENTS.md'), 'KEPT OUT at the root');
    await writeFile(path.join(kept, 'private', 'AGENTS.md'), 'KEPT OUT in private');
    await writeFile(path.join(kept, 'src', 'a.ts'), '');
    await writeFile(path.join(kept, 'private', 'src', 'b.ts'), '');
    const finder = createNestedRulesFinder([{ folder: kept, label: '' }], ['AGENTS.md']);
    assert.deepEqual(await finder.rulesFor(path.join(kept, 'src', 'a.ts')), []);
    assert.deepEqual(await finder.rulesFor(path.join(kept, 'private', 'src', 'b.ts')), []);
  });

  it('an empty list finds nothing', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: '' }], []);
    assert.deepEqual(await finder.rulesFor(path.join(repo, 'packages', 'api', 'src', 'deep', 'handler.ts')), []);
  });

  it('a run adds each nested file once, skips the ones it has, and keeps the total cap', async () => {
    const finder = createNestedRulesFinder([{ folder: repo, label: '' }], DEFAULT_RULES_FILES);
    const rules = new RunRules([{ path: 'AGENTS.md', text: 'Root rules.' }], finder);
    const handler = path.join(repo, 'packages', 'api', 'src', 'deep', 'handler.ts');
    const joined = await rules.noteTouched([handler, path.join(repo, 'packages', 'web', 'src', 'app.ts')]);
    assert.deepEqual(joined.map((nested) => nested.rule.path), ['packages/api/AGENTS.md', 'packages/api/CLAUDE.md']);
    assert.deepEqual(await rules.noteTouched([handler, path.join(repo, 'packages', 'api', 'AGENTS.md')]), []);
    assert.deepEqual(rules.files().map((rule) => rule.path), ['AGENTS.md', 'packages/api/AGENTS.md', 'packages/api/CLAUDE.md']);

    // A nested file that repeats one the run has (a CLAUDE.md copying AGENTS.md) joins once.
    const copies = new RunRules([{ path: 'AGENTS.md', text: 'Root rules.' }], { rulesFor: async () => [{ rule: { path: 'pkg/CLAUDE.md', text: 'Root rules.\n' }, near: 'pkg/x.ts' }] });
    assert.deepEqual(await copies.noteTouched(['/w/pkg/x.ts']), []);

    let lookups = 0;
    const big: NestedRulesFinder = {
      rulesFor: async (file) => {
        lookups++;
        return [{ rule: { path: `${path.basename(file)}/AGENTS.md`, text: `${path.basename(file)} `.padEnd(RULE_FILE_CHAR_LIMIT, 'x') }, near: file }];
      },
    };
    const capped = new RunRules([], big);
    const files = Array.from({ length: RULES_TOTAL_CHAR_LIMIT / RULE_FILE_CHAR_LIMIT + 2 }, (_, index) => `/w/f${index}`);
    await capped.noteTouched([...files, files[0]!]);
    assert.equal(lookups, files.length, 'each touched file is looked up once');
    assert.equal(capped.files().length, RULES_TOTAL_CHAR_LIMIT / RULE_FILE_CHAR_LIMIT);
    assert.equal(capped.files().reduce((sum, rule) => sum + rule.text.length, 0), RULES_TOTAL_CHAR_LIMIT);
  });

  it('a finder that fails is no rules, not a failed run', async () => {
    const rules = new RunRules(undefined, { rulesFor: async () => Promise.reject(new Error('EACCES')) });
    assert.deepEqual(await rules.noteTouched(['/w/a.ts']), []);
  });
});
