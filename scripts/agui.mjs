// `npm run agui`: runs the headless AG-UI server from the bundle dist/agui.js
// when it is up to date (fast start), else from the TypeScript sources with tsx.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'agui.js');

function newestSource(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const fresh = existsSync(bundle) && statSync(bundle).mtimeMs >= newestSource(path.join(root, 'src'));
// tsx from this repository, whatever directory the server runs in.
const args = fresh ? [bundle, ...process.argv.slice(2)] : ['--import', import.meta.resolve('tsx'), path.join(root, 'src', 'headless', 'aguiCli.ts'), ...process.argv.slice(2)];
// npm runs scripts in the package root; relative paths mean the caller's directory.
const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: process.env.INIT_CWD || process.cwd() });
// Signals reach the server, which closes its runs and MCP servers before exiting.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
