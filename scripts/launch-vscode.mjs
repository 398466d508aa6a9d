// `npm run vscode`: builds Tandem and opens it in a real VS Code (code-server)
// that you reach from a browser. Installs what is missing first.
//   npm run vscode                      open the folder you ran npm from
//   npm run vscode -- /path/to/folder   open that folder
//   npm run vscode -- --demo            open a small demo workspace, answered by the demo model
//                                       (scripts/demoModel.ts: scripted, no key needed)
//   npm run vscode -- --port 8080 --host 127.0.0.1
// Settings and conversations persist in .cache/vscode-user-data/ (the demo's
// in .cache/vscode-demo-user-data/, so the demo model never becomes your model).
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

const demo = process.argv.includes('--demo');
const demoWorkspace = path.join(cache, 'demo-workspace');

/** Starts the demo model (it also writes the demo workspace and points the settings at itself); resolves with its base URL. */
function startDemoModel(settingsFile) {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(root, 'scripts', 'demoModel.ts'), '--workspace', demoWorkspace, '--settings', settingsFile],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
  process.on('exit', () => child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (data) => {
      output += String(data);
      const ready = /READY (\S+)/.exec(output);
      if (ready) resolve(ready[1]);
    });
    child.once('exit', (code) => reject(new Error(`the demo model exited (code ${code}) before it was ready`)));
  });
}

function chooseWorkspace() {
  if (demo) return demoWorkspace;
  const positional = process.argv.slice(2).filter((argument, index, all) => {
    const previous = all[index - 1];
    return !argument.startsWith('--') && previous !== '--port' && previous !== '--host';
  });
  // npm runs scripts in the package folder; INIT_CWD is where you typed the command.
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), positional[0] ?? '.');
}

const workspace = chooseWorkspace();
if (!demo && !fs.existsSync(workspace)) throw new Error(`no such folder: ${workspace}`);

if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) sh('npm', ['install']);
sh('npm', ['run', 'build']);
sh('bash', ['scripts/setup-vscode.sh']);

const userDataDir = path.join(cache, demo ? 'vscode-demo-user-data' : 'vscode-user-data');
const extensionsDir = path.join(cache, 'vscode-extensions');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
const settingsFile = path.join(userDataDir, 'User', 'settings.json');
if (!fs.existsSync(settingsFile)) {
  // First run only; after that the file is yours (Tandem's settings live here too).
  fs.writeFileSync(settingsFile, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off' }, null, 2));
}
if (demo) {
  const baseUrl = await startDemoModel(settingsFile);
  console.log(`\nDemo model (scripted, not a real model) at ${baseUrl}; the demo profile's settings point at it.`);
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
if (demo) console.log('Ask anything: the demo model lists the workspace, reads README.md and answers (the same answer every time).\n');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 0));
