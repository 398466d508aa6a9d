// Copilot's scoped instruction files (.github/instructions/*.instructions.md)
// in a real folder: the front matter's applyTo as Copilot writes it, those for
// every file read at the start (without the front matter), those for some
// files joining when the run touches one, those without applyTo left out.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/agent/agentSettings';
import { RunRules } from '../../../src/agent/runRules';
import { appliesTo, appliesToEverything, parseInstructionsFile } from '../../../src/tools/scopedInstructions';
import { SensitivePaths } from '../../../src/tools/sensitivePaths';
import { readWorkspaceRules } from '../../../src/tools/workspaceRules';

describe('the applyTo of an instructions file', () => {
  it('reads quoted, plain and listed globs, keeping a brace list whole', () => {
    const parse = (frontMatter: string) => parseInstructionsFile(`---\n${frontMatter}\n---\nBody.\n`).applyTo;
    assert.deepEqual(parse('applyTo: "**/*.ts,**/*.tsx"'), ['**/*.ts', '**/*.tsx']);
    assert.deepEqual(parse("description: 'Tests'\napplyTo: 'tests/**, ./e2e/**' # the suites"), ['tests/**', 'e2e/**']);
    assert.deepEqual(parse('applyTo: src/**/*.{ts,tsx} # a comment'), ['src/**/*.{ts,tsx}']);
    assert.deepEqual(parse('applyTo: ["**/*.py", \'docs/**\']'), ['**/*.py', 'docs/**']);
    assert.equal(parse('description: no applyTo here'), undefined);
    assert.equal(parse('applyTo: ""'), undefined);
    assert.deepEqual(parseInstructionsFile('No front matter.\n'), { applyTo: undefined, body: 'No front matter.\n' });
    assert.equal(parseInstructionsFile('---\r\napplyTo: "**"\r\n---\r\nBody.\r\n').body, 'Body.\r\n');
  });

  it('matches workspace-relative paths; ** and * cover everything; a glob without a slash matches at any depth', () => {
    assert.ok(appliesToEverything(['**']) && appliesToEverything(['*']) && appliesToEverything(['src/**', '**/*']));
    assert.ok(!appliesToEverything(['**/*.ts']));
    assert.ok(appliesTo(['src/**/*.{ts,tsx}'], 'src/ui/App.tsx'));
    assert.ok(!appliesTo(['src/**/*.{ts,tsx}'], 'test/App.tsx'));
    assert.ok(appliesTo(['*.py'], 'tools/deep/build.py'));
    assert.ok(appliesTo(['**/*.yml'], '.github/workflows/ci.yml'), 'dot folders match');
  });
});

describe('instructions files in a workspace', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-instructions-'));
    const dir = path.join(root, '.github', 'instructions');
    await mkdir(dir, { recursive: true });
    await mkdir(path.join(root, 'src', 'api'), { recursive: true });
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await writeFile(path.join(dir, 'all.instructions.md'), '---\napplyTo: "**"\n---\nEVERYWHERE: answer briefly.\n');
    await writeFile(path.join(dir, 'ts.instructions.md'), '---\ndescription: TypeScript\napplyTo: "**/*.ts"\n---\nTS-RULE: no any.\n');
    await writeFile(path.join(dir, 'api.instructions.md'), "---\napplyTo: 'src/api/**'\n---\nAPI-RULE: validate input.\n");
    await writeFile(path.join(dir, 'manual.instructions.md'), '---\ndescription: attached by hand\n---\nMANUAL-RULE.\n');
    await writeFile(path.join(dir, 'notes.md'), '---\napplyTo: "**"\n---\nNOT-AN-INSTRUCTIONS-FILE.\n');
    await writeFile(path.join(root, 'src', 'api', 'users.ts'), 'export {};\n');
    await writeFile(path.join(root, 'docs', 'guide.md'), '# Guide\n');
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('reads those for every file at the start, front matter left out; the others join when the run touches a file they are for', async () => {
    const { rules: initial, nestedRules } = await readWorkspaceRules([{ folder: root, label: '' }], DEFAULT_RULES_FILES);
    assert.deepEqual(initial, [{ path: '.github/instructions/all.instructions.md', text: 'EVERYWHERE: answer briefly.\n' }]);

    const rules = new RunRules(initial, nestedRules);
    assert.deepEqual(await rules.noteTouched([path.join(root, 'docs', 'guide.md')]), [], 'a Markdown file matches neither');
    const joined = await rules.noteTouched([path.join(root, 'src', 'api', 'users.ts')]);
    assert.deepEqual(
      joined.map((nested) => [nested.rule.path, nested.rule.text, nested.near]),
      [
        ['.github/instructions/api.instructions.md', 'API-RULE: validate input.\n', 'src/api/users.ts'],
        ['.github/instructions/ts.instructions.md', 'TS-RULE: no any.\n', 'src/api/users.ts'],
      ],
    );
    const all = rules.files().map((rule) => rule.text).join('\n');
    assert.doesNotMatch(all, /MANUAL-RULE|NOT-AN-INSTRUCTIONS-FILE|applyTo/);
  });

  it('are sensitive paths: a write to one asks however edits are approved', () => {
    assert.ok(new SensitivePaths().matches('.github/instructions/ts.instructions.md'));
  });
});
