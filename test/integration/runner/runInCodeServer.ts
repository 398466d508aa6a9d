// Runs the extension-host suite inside code-server: bundles it, links the
// runner extension beside Tandem, opens the workbench (the extension host
// starts only when a browser connects) and waits for the results file.
// Usage: node --import tsx test/integration/runner/runInCodeServer.ts [counts.json]
// Prints one line per test; writes {"passed","failed"} to counts.json if given.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchVsCode, type VsCodeSession } from '../../e2e/harness';
import type { IntegrationResults } from './runner';

const runnerDir = __dirname;
const timeoutMs = 300_000;

async function main(): Promise<number> {
  execFileSync(process.execPath, [path.join(runnerDir, 'build.mjs')], { stdio: 'inherit' });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-integration-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Integration workspace\n');
  const resultsPath = path.join(scratch, 'results.json');
  let session: VsCodeSession | undefined;
  try {
    session = await launchVsCode({
      workspace,
      extensions: [runnerDir],
      env: { TANDEM_INTEGRATION_RESULTS: resultsPath },
    });
    const results = await waitForResults(resultsPath, timeoutMs);
    report(results);
    const countsPath = process.argv[2];
    if (countsPath) fs.writeFileSync(countsPath, JSON.stringify({ passed: results.passed, failed: results.failed }));
    return results.failed > 0 ? 1 : 0;
  } catch (error) {
    console.error(`extension-host suite did not finish: ${(error as Error).message}`);
    if (session) console.error(session.logs());
    return 2;
  } finally {
    await session?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function waitForResults(resultsPath: string, limitMs: number): Promise<IntegrationResults> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(resultsPath)) return JSON.parse(fs.readFileSync(resultsPath, 'utf8')) as IntegrationResults;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no results after ${limitMs / 1000} s`);
}

function report(results: IntegrationResults): void {
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? '✔' : test.state === 'failed' ? '✖' : '-';
    console.log(`${mark} ${test.title} (${test.durationMs} ms)`);
    if (test.error) console.log(test.error.replace(/^/gm, '    '));
  }
  console.log(`extension host: ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
