// find_usages over a host's language services, with a scripted CodeNavigation
// standing in for VS Code's providers (the real ones answer in the e2e suite,
// test/e2e/everyday.e2e.ts, with TypeScript's): what the model reads — the
// definitions, the uses sorted and without duplicates, files outside the
// workspace or ignored left out, a cut at maxResults — and how the symbol is
// picked: by name, or where it first stands as code in the given file.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { CodeLocation, CodeNavigation, SymbolDefinition } from '../../../src/tools/codeNavigation';
import { createFindUsagesTool, firstOccurrence } from '../../../src/tools/findUsagesTool';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import type { ToolContext } from '../../../src/tools/tool';
import { makeTempDir, ScriptedApproval } from './workspaceTestKit';
import { rmSync } from 'node:fs';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

class ScriptedNavigation implements CodeNavigation {
  readonly asked: string[] = [];
  constructor(
    private readonly symbols: readonly SymbolDefinition[],
    private readonly definitionsOf: (at: CodeLocation) => readonly CodeLocation[],
    private readonly referencesOf: (at: CodeLocation) => readonly CodeLocation[],
  ) {}
  async definitions(name: string): Promise<readonly SymbolDefinition[]> {
    this.asked.push(`symbols ${name}`);
    return this.symbols.filter((symbol) => symbol.name === name);
  }
  async definitionsAt(at: CodeLocation): Promise<readonly CodeLocation[]> {
    this.asked.push(`definition ${path.basename(at.path)}:${at.line}:${at.column}`);
    return this.definitionsOf(at);
  }
  async references(at: CodeLocation): Promise<readonly CodeLocation[]> {
    this.asked.push(`references ${path.basename(at.path)}:${at.line}:${at.column}`);
    return this.referencesOf(at);
  }
  async fileLines(file: string): Promise<readonly string[] | undefined> {
    try {
      return readFileSync(file, 'utf8').split('\n');
    } catch {
      return undefined;
    }
  }
}

function workspace(): { root: string; host: NodeWorkspaceHost; at: (file: string, line: number, column: number) => CodeLocation } {
  root = makeTempDir();
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'node_modules'));
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
  writeFileSync(path.join(root, '.tandemignore'), 'secret.ts\n');
  writeFileSync(path.join(root, 'tsconfig.json'), '{ "include": ["src"] }\n');
  writeFileSync(path.join(root, 'src', 'greet.ts'), '// greet says hello\nexport function greet(name: string) {\n  return `hi ${name}`;\n}\n');
  writeFileSync(path.join(root, 'src', 'main.ts'), "import { greet } from './greet';\ngreet('Ada');\ngreet('Bob');\n");
  writeFileSync(path.join(root, 'node_modules', 'dep.ts'), "import { greet } from '../src/greet';\ngreet('dep');\n");
  writeFileSync(path.join(root, 'secret.ts'), "greet('secret');\n");
  const host = new NodeWorkspaceHost({ folders: [root] });
  return { root, host, at: (file, line, column) => ({ path: path.join(root, file), line, column }) };
}

function context(): ToolContext {
  return { runId: 'r', callId: 'c', signal: new AbortController().signal, approval: new ScriptedApproval(true) };
}

describe('find_usages', () => {
  it('by name: the definition, then each use once, in order; outside the workspace and ignored files left out', async () => {
    const { host, at } = workspace();
    const definition = { ...at('src/greet.ts', 2, 17), name: 'greet', kind: 'function' };
    const uses = [at('src/main.ts', 3, 1), at('src/main.ts', 1, 10), at('src/main.ts', 2, 1), at('src/main.ts', 2, 1), at('node_modules/dep.ts', 2, 1), at('secret.ts', 1, 1), { path: '/elsewhere/x.ts', line: 1, column: 1 }, at('src/greet.ts', 2, 17)];
    const navigation = new ScriptedNavigation([definition], () => [], () => uses);
    const tool = createFindUsagesTool({ host, navigation });
    assert.equal(tool.readOnly, true);
    const result = await tool.run({ symbol: 'greet()' }, context());
    assert.equal(result.isError, undefined, result.text);
    assert.equal(
      result.text,
      [
        '"greet": 1 definition in the workspace, 3 uses in 1 file (VS Code\'s language services).',
        '',
        'Defined at:\n- src/greet.ts:2:17: export function greet(name: string) { (function)',
        '',
        "Used at:\n- src/main.ts:1:10: import { greet } from './greet';\n- src/main.ts:2:1: greet('Ada');\n- src/main.ts:3:1: greet('Bob');",
      ].join('\n'),
    );
    assert.deepEqual(result.summary, {
      kind: 'search',
      total: 3,
      top: [
        { title: 'src/main.ts:1', snippet: "import { greet } from './greet';" },
        { title: 'src/main.ts:2', snippet: "greet('Ada');" },
        { title: 'src/main.ts:3', snippet: "greet('Bob');" },
      ],
    });
    assert.deepEqual(navigation.asked, ['symbols greet', 'references greet.ts:2:17']);

    const cut = await tool.run({ symbol: 'greet', maxResults: 1 }, context());
    assert.match(cut.text, /Used at:\n- src\/main\.ts:1:10: .*\n\(2 more; raise maxResults to see them\)$/);
  });

  it('with a file: the symbol where it first stands as code there, followed to its definition', async () => {
    const { host, at } = workspace();
    const definition = at('src/greet.ts', 2, 17);
    const navigation = new ScriptedNavigation([], () => [definition], () => [definition, at('src/main.ts', 2, 1)]);
    const result = await createFindUsagesTool({ host, navigation }).run({ symbol: 'greet', path: 'src/greet.ts' }, context());
    // Line 1 names it in a comment: the language service is asked about line 2.
    assert.deepEqual(navigation.asked, ['definition greet.ts:2:17', 'references greet.ts:2:17']);
    assert.match(result.text, /^"greet": 1 definition in the workspace, 1 use in 1 file/);
  });

  it('by name, when the symbol search knows none: asked from the first place it is used as code', async () => {
    const { host, at } = workspace();
    const definition = at('src/greet.ts', 2, 17);
    // As TypeScript does before it has loaded the project: no symbol, but Go to Definition from a use works.
    const navigation = new ScriptedNavigation([], (place) => (place.path.endsWith('greet.ts') && place.line === 2 ? [definition] : []), () => [definition, at('src/main.ts', 2, 1)]);
    const result = await createFindUsagesTool({ host, navigation }).run({ symbol: 'greet' }, context());
    assert.equal(result.isError, undefined, result.text);
    // The comment on line 1 of greet.ts is not asked; its line 2 is the first use as code.
    assert.deepEqual(navigation.asked, ['symbols greet', 'definition greet.ts:2:17', 'references greet.ts:2:17']);
    assert.match(result.text, /^"greet": 1 definition in the workspace, 1 use in 1 file/);
  });

  it('says what to do when nothing knows the symbol, or the file lacks it', async () => {
    const { host } = workspace();
    const navigation = new ScriptedNavigation([], () => [], () => []);
    const tool = createFindUsagesTool({ host, navigation });
    const unknown = await tool.run({ symbol: 'nowhere' }, context());
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /"nowhere" appears nowhere in the workspace's files as a whole word\./);
    // Named in the files (not the ignored ones), but no language service knows it there: the places are named, code before comments.
    const unserved = await tool.run({ symbol: 'greet' }, context());
    assert.equal(unserved.isError, true);
    assert.match(unserved.text, /know no definition of "greet" at the places it appears \(src\/greet\.ts:2, src\/main\.ts:1, src\/main\.ts:2, src\/main\.ts:3, src\/greet\.ts:1\).*search_text finds the text\./s);
    const missing = await tool.run({ symbol: 'nowhere', path: 'src/main.ts' }, context());
    assert.match(missing.text, /src\/main\.ts does not contain "nowhere" as a whole word\./);
    const outside = await tool.run({ symbol: 'greet', path: '../x.ts' }, context());
    assert.equal(outside.isError, true);
  });

  it('says when no tsconfig.json or jsconfig.json covers the definition: TypeScript then knows only open files', async () => {
    const { host, at, root: folder } = workspace();
    const navigation = new ScriptedNavigation([{ ...at('src/greet.ts', 2, 17), name: 'greet', kind: 'function' }], () => [], () => [at('src/main.ts', 2, 1)]);
    const tool = createFindUsagesTool({ host, navigation });
    assert.doesNotMatch((await tool.run({ symbol: 'greet' }, context())).text, /Note:/, 'the root tsconfig.json covers src/');
    rmSync(path.join(folder, 'tsconfig.json'));
    assert.match((await tool.run({ symbol: 'greet' }, context())).text, /\n\nNote: no tsconfig\.json or jsconfig\.json covers src\/greet\.ts, so TypeScript knows only the files open in editors: uses in other files may be missing\. search_text finds the text\.$/);
    writeFileSync(path.join(folder, 'src', 'jsconfig.json'), '{}\n');
    assert.doesNotMatch((await tool.run({ symbol: 'greet' }, context())).text, /Note:/, 'one in the file\'s own folder');
  });

  it('finds a whole word only, code before comments', () => {
    assert.deepEqual(firstOccurrence('// greet\nconst greeting = 1;\ngreet();\n', 'greet'), { line: 3, column: 1 });
    assert.deepEqual(firstOccurrence('  # only greet here\n', 'greet'), { line: 1, column: 10 }, 'a comment when nothing else names it');
    assert.equal(firstOccurrence('greeting\n_greet\n', 'greet'), undefined);
    assert.deepEqual(firstOccurrence('x = ab$c + b$c', 'b$c'), { line: 1, column: 12 });
  });
});
