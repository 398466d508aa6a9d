// `npm run vscode`: builds Tandem and opens it in a real VS Code (code-server)
// that you reach from a browser. Installs what is missing first.
//   npm run vscode                      open the folder you ran npm from
//   npm run vscode -- /path/to/folder   open that folder
//   npm run vscode -- --demo            open a small demo workspace
//   npm run vscode -- --port 8080 --host 127.0.0.1
// Settings and conversations persist in .cache/vscode-user-data/.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, '.cache');
const codeServer = path.join(cache, 'code-server', 'node_modules', '.bin', 'code-server');

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

function sh(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd: root, stdio: 'inherit' });
}

function portIsFree(port, host) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

async function choosePort(wanted, host) {
  if (await portIsFree(wanted, host)) return wanted;
  for (let port = wanted + 1; port < wanted + 50; port += 1) if (await portIsFree(port, host)) return port;
  throw new Error(`no free port near ${wanted}`);
}

function makeDemoWorkspace() {
  const demo = path.join(cache, 'demo-workspace');
  if (!fs.existsSync(demo)) {
    fs.mkdirSync(path.join(demo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(demo, 'README.md'), '# Demo\n\nA small project to try Tandem on. Ask: "What does src/greet.ts export?"\n');
    fs.writeFileSync(
      path.join(demo, 'src', 'greet.ts'),
      'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
    );
    fs.writeFileSync(path.join(demo, 'notes.md'), '# Notes\n\n- The release is planned for Friday.\n- greet() needs a test.\n');
  }
  return demo;
}

function chooseWorkspace() {
  if (process.argv.includes('--demo')) return makeDemoWorkspace();
  const positional = process.argv.slice(2).filter((argument, index, all) => {
    const previous = all[index - 1];
    return !argument.startsWith('--') && previous !== '--port' && previous !== '--host';
  });
  // npm runs scripts in the package folder; INIT_CWD is where you typed the command.
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), positional[0] ?? '.');
}

const workspace = chooseWorkspace();
if (!fs.existsSync(workspace)) throw new Error(`no such folder: ${workspace}`);

if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) sh('npm', ['install']);
sh('npm', ['run', 'build']);
sh('bash', ['scripts/setup-vscode.sh']);

const userDataDir = path.join(cache, 'vscode-user-data');
const extensionsDir = path.join(cache, 'vscode-extensions');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
const settingsFile = path.join(userDataDir, 'User', 'settings.json');
if (!fs.existsSync(settingsFile)) {
  // First run only; after that the file is yours (Tandem's settings live here too).
  fs.writeFileSync(settingsFile, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off' }, null, 2));
}
fs.mkdirSync(extensionsDir, { recursive: true });
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const entry of fs.readdirSync(extensionsDir)) {
  if (entry.startsWith(`${manifest.publisher}.${manifest.name}-`)) fs.rmSync(path.join(extensionsDir, entry), { recursive: true, force: true });
}
fs.symlinkSync(root, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');

const host = option('--host', '127.0.0.1');
if (host !== '127.0.0.1' && host !== 'localhost') {
  console.warn(`\nWarning: code-server runs without a password; anyone who reaches ${host}:PORT controls this machine.`);
}
const port = await choosePort(Number(option('--port', process.env.PORT ?? '8080')), host);
const child = spawn(
  codeServer,
  [
    '--auth', 'none',
    '--bind-addr', `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--config', path.join(userDataDir, 'code-server.yaml'),
    workspace,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
console.log(`\nTandem in VS Code: open http://${shownHost}:${port}/?folder=${encodeURIComponent(workspace)}`);
console.log('Then click the Tandem icon in the activity bar. Ctrl+C stops code-server.\n');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 0));
