// Runs the same extension-host suite in desktop VS Code downloaded by
// @vscode/test-electron, where the network allows the download (not on the CI
// machines here, which use runner/runInCodeServer.ts instead).
// Usage: npm run build && node --import tsx test/integration/runWithTestElectron.ts
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repositoryRoot = path.resolve(__dirname, '..', '..');
  const runnerDir = path.join(__dirname, 'runner');
  execFileSync(process.execPath, [path.join(runnerDir, 'build.mjs')], { stdio: 'inherit' });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-integration-'));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Integration workspace\n');
  try {
    await runTests({
      extensionDevelopmentPath: repositoryRoot,
      // The runner's run() is the test entry; it bundles the same tests.
      extensionTestsPath: path.join(runnerDir, 'out', 'runner.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
