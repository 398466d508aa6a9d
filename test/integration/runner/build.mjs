// Bundles the extension-host suite for the runner extension in this folder:
// runner.ts -> out/runner.js and each test/integration/**/*.test.ts ->
// out/tests/<name>.js. `vscode` stays external (the extension host provides
// it), and so does mocha (loaded from the repository's node_modules).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const runnerDir = path.dirname(fileURLToPath(import.meta.url));
const integrationDir = path.dirname(runnerDir);
const outDir = path.join(runnerDir, 'out');

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'runner' ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const shared = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'inline', logLevel: 'warning', external: ['vscode', 'mocha'] };
fs.rmSync(outDir, { recursive: true, force: true });
await esbuild.build({ ...shared, entryPoints: [path.join(runnerDir, 'runner.ts')], outfile: path.join(outDir, 'runner.js') });
const tests = findTests(integrationDir);
await esbuild.build({ ...shared, entryPoints: tests, outdir: path.join(outDir, 'tests'), outbase: integrationDir });
console.log(`integration suite bundled: ${tests.length} test file(s) -> ${path.relative(process.cwd(), outDir)}`);
