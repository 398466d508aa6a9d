// The agent runs in plain Node: only src/host/ and src/extension.ts may
// import 'vscode' (statically, dynamically or by require).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { it } from 'node:test';

const root = join(__dirname, '..', '..');
const vscodeImport = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]vscode['"]/;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

it('nothing outside src/host/ and src/extension.ts imports vscode', () => {
  const files = sourceFiles(join(root, 'src'));
  assert.ok(files.length > 20, 'the source tree was found');
  const offenders = files
    .map((file) => relative(root, file).split(sep).join('/'))
    .filter((file) => !file.startsWith('src/host/') && file !== 'src/extension.ts')
    .filter((file) => vscodeImport.test(readFileSync(join(root, file), 'utf8')));
  assert.deepEqual(offenders, []);
});

it('the check recognises every form of import', () => {
  for (const line of ["import * as vscode from 'vscode';", 'import type { Uri } from "vscode";', "const v = require('vscode');", "await import('vscode')", "import 'vscode';"]) {
    assert.ok(vscodeImport.test(line), line);
  }
  assert.ok(!vscodeImport.test("import { x } from './vscodeWorkspaceHost';"));
});
