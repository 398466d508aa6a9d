// `npm test`: builds, then runs every suite and ends with "N passed, N failed".
//   unit         plain Node: node --import tsx --test test/unit/**/*.test.ts
//   reliability  plain Node: faults on purpose through real runs (test/reliability/*.test.ts)
//   integration  the extension-host mocha suite inside code-server
//   e2e          Playwright against code-server: test/e2e/**/*.e2e.ts (node:test)
//   mcp-conformance  the official MCP client scenarios through Tandem's MCP layer
//                (counts are scenarios; scripts/mcp-conformance.mjs)
// Before a suite runs, its setup script installs what it needs:
//   scripts/setup-unit.sh (ripgrep), scripts/setup-vscode.sh (chromium, code-server),
//   scripts/setup-node22.mjs (Node 22 for the conformance suite's runner).
// `--only=unit` (or a comma list) runs a subset; unit alone skips the build.
// Each suite's output streams through; totals come from machine-readable
// reports (a node:test reporter, the runner's results file), not from text.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const allSuites = ['unit', 'reliability', 'mcp-conformance', 'integration', 'e2e'];
const onlyArgument = process.argv.find((argument) => argument.startsWith('--only='));
const selected = onlyArgument ? onlyArgument.slice('--only='.length).split(',') : allSuites;
for (const name of selected) {
  if (!allSuites.includes(name)) throw new Error(`unknown suite "${name}"; known: ${allSuites.join(', ')}`);
}
const needsVsCode = selected.some((name) => name === 'integration' || name === 'e2e');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-run-tests-'));
const countReporter = path.join(root, 'scripts', 'testCountReporter.mjs');

/** @type {{ name: string, passed: number, failed: number, crashed?: string }[]} */
const outcomes = [];

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', (error) => resolve({ code: 127, error }));
    child.on('exit', (code, signal) => resolve({ code: code ?? 1, signal }));
  });
}

function banner(text) {
  console.log(`\n=== ${text}`);
}

function findFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((name) => String(name).endsWith(suffix))
    .map((name) => path.join(dir, String(name)))
    .sort();
}

async function step(name, command, args) {
  banner(name);
  const result = await run(command, args);
  if (result.code !== 0) {
    outcomes.push({ name, passed: 0, failed: 0, crashed: `exit code ${result.code}` });
    return false;
  }
  return true;
}

async function nodeTestSuite(name, files, extraArgs = []) {
  banner(`${name}: ${files.length} file(s)`);
  if (files.length === 0) {
    outcomes.push({ name, passed: 0, failed: 0 });
    return;
  }
  const countsFile = path.join(scratch, `${name}.json`);
  const result = await run(process.execPath, [
    '--import', 'tsx', '--test', ...extraArgs,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${countReporter}`, `--test-reporter-destination=${countsFile}`,
    ...files.map((file) => path.relative(root, file)),
  ]);
  const totals = fs.existsSync(countsFile) ? JSON.parse(fs.readFileSync(countsFile, 'utf8') || '{}') : {};
  if (totals.pass === undefined) {
    outcomes.push({ name, passed: 0, failed: 0, crashed: `no totals reported (exit code ${result.code})` });
    return;
  }
  const failed = (totals.fail ?? 0) + (totals.cancelled ?? 0);
  const outcome = { name, passed: totals.pass, failed };
  if (result.code !== 0 && failed === 0) outcome.crashed = `exit code ${result.code} with no failed test`;
  outcomes.push(outcome);
}

async function integrationSuite() {
  const name = 'integration';
  banner(`${name}: extension-host suite in code-server`);
  const countsFile = path.join(scratch, `${name}.json`);
  const result = await run(process.execPath, ['--import', 'tsx', 'test/integration/runner/runInCodeServer.ts', countsFile]);
  if (!fs.existsSync(countsFile)) {
    outcomes.push({ name, passed: 0, failed: 0, crashed: `no results (exit code ${result.code})` });
    return;
  }
  const counts = JSON.parse(fs.readFileSync(countsFile, 'utf8'));
  outcomes.push({ name, passed: counts.passed, failed: counts.failed });
}

async function conformanceSuite() {
  const name = 'mcp-conformance';
  banner(`${name}: official MCP client scenarios`);
  const countsFile = path.join(scratch, `${name}.json`);
  const result = await run(process.execPath, ['scripts/mcp-conformance.mjs', '--json', countsFile]);
  if (!fs.existsSync(countsFile)) {
    outcomes.push({ name, passed: 0, failed: 0, crashed: `no results (exit code ${result.code})` });
    return;
  }
  const counts = JSON.parse(fs.readFileSync(countsFile, 'utf8'));
  outcomes.push({ name, passed: counts.passed, failed: counts.failed });
}

async function main() {
  // A fresh clone: install exactly what the lockfile says.
  if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
    if (!(await step('install', 'npm', ['ci']))) return;
  }
  if (needsVsCode) {
    if (!(await step('build', 'npm', ['run', 'build']))) return;
  }
  // Each suite's prerequisites are installed right before it, so a fresh
  // machine never runs a suite without what it needs (e.g. rg for search_text).
  if (selected.includes('unit')) {
    if (!(await step('setup-unit', 'bash', ['scripts/setup-unit.sh']))) return;
    await nodeTestSuite('unit', findFiles(path.join(root, 'test', 'unit'), '.test.ts'));
  }
  if (selected.includes('reliability')) {
    // Uses rg like the unit suite; its own timeout per file so a hang fails instead of stalling the run.
    if (!selected.includes('unit') && !(await step('setup-unit', 'bash', ['scripts/setup-unit.sh']))) return;
    await nodeTestSuite('reliability', findFiles(path.join(root, 'test', 'reliability'), '.test.ts'), ['--test-timeout=120000']);
  }
  if (selected.includes('mcp-conformance')) await conformanceSuite();
  if (needsVsCode) {
    if (!(await step('setup-vscode', 'bash', ['scripts/setup-vscode.sh']))) return;
  }
  if (selected.includes('integration')) await integrationSuite();
  if (selected.includes('e2e')) {
    // One VS Code at a time: the machines have two cores.
    await nodeTestSuite('e2e', findFiles(path.join(root, 'test', 'e2e'), '.e2e.ts'), [
      '--test-concurrency=1',
      '--test-timeout=300000',
    ]);
  }
}

await main();
fs.rmSync(scratch, { recursive: true, force: true });

banner('summary');
let passed = 0;
let failed = 0;
for (const outcome of outcomes) {
  // A suite that crashed counts as one failure, so the total can never read as green.
  const suiteFailed = outcome.failed + (outcome.crashed ? 1 : 0);
  passed += outcome.passed;
  failed += suiteFailed;
  const note = outcome.crashed ? ` (crashed: ${outcome.crashed})` : '';
  console.log(`${outcome.name}: ${outcome.passed} passed, ${suiteFailed} failed${note}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
