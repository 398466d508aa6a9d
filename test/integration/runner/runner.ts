// Runs the bundled extension-host suite (out/tests/*.js) with mocha inside a
// real VS Code. Two ways in:
// - code-server: this folder is linked as an extension; on activation, when
//   TANDEM_INTEGRATION_RESULTS names a file, it runs the suite and writes the
//   results there (the file appearing is the "done" signal).
// - @vscode/test-electron: `run()` is the extensionTestsPath entry.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface IntegrationTestResult {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface IntegrationResults {
  passed: number;
  failed: number;
  pending: number;
  tests: IntegrationTestResult[];
}

export const resultsPathVariable = 'TANDEM_INTEGRATION_RESULTS';

export function activate(): void {
  const resultsPath = process.env[resultsPathVariable];
  if (!resultsPath) return;
  // Not awaited: activation must return; the results file is the signal.
  void runSuite().then(
    (results) => writeResults(resultsPath, results),
    (error: unknown) =>
      writeResults(resultsPath, {
        passed: 0,
        failed: 1,
        pending: 0,
        tests: [{ title: 'integration runner', state: 'failed', durationMs: 0, error: describeError(error) }],
      }),
  );
}

export function deactivate(): void {}

/** Entry for @vscode/test-electron: rejects when any test fails. */
export async function run(): Promise<void> {
  const results = await runSuite();
  for (const test of results.tests) console.log(`${test.state === 'passed' ? 'ok' : test.state === 'failed' ? 'not ok' : 'skip'} - ${test.title}`);
  if (results.failed > 0) throw new Error(`${results.failed} extension-host test(s) failed`);
}

export function runSuite(): Promise<IntegrationResults> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, color: false, reporter: NoOutputReporter });
  const testsDir = path.join(__dirname, 'tests');
  const files = (fs.readdirSync(testsDir, { recursive: true }) as string[]).filter((name) => name.endsWith('.test.js'));
  for (const file of files.sort()) {
    mocha.addFile(path.join(testsDir, file));
  }
  const results: IntegrationResults = { passed: 0, failed: 0, pending: 0, tests: [] };
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve(results));
    runner.on('pass', (test) => {
      results.passed += 1;
      results.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
    });
    runner.on('fail', (test, error: unknown) => {
      results.failed += 1;
      results.tests.push({ title: test.fullTitle(), state: 'failed', durationMs: test.duration ?? 0, error: describeError(error) });
    });
    runner.on('pending', (test) => {
      results.pending += 1;
      results.tests.push({ title: test.fullTitle(), state: 'pending', durationMs: 0 });
    });
  });
}

// Results go to the file, not to the extension host's console.
class NoOutputReporter extends Mocha.reporters.Base {}

function writeResults(resultsPath: string, results: IntegrationResults): void {
  // Write then rename, so a reader never sees half a file.
  const partial = `${resultsPath}.partial`;
  fs.writeFileSync(partial, JSON.stringify(results, null, 2));
  fs.renameSync(partial, resultsPath);
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
