// The MCP conformance suite's runner needs Node 22 (it imports fs.globSync);
// Tandem itself stays on Node 20. This installs one pinned Node 22 from the
// npm registry (the official binaries, published as node-<platform>-<arch>)
// into .cache/node22 and prints its path. Idempotent: a matching copy is reused.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '22.23.3';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function node22Path() {
  const packageName = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const prefix = path.join(root, '.cache', 'node22');
  const binary = path.join(prefix, 'node_modules', packageName, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (fs.existsSync(binary) && currentVersion(binary) === `v${VERSION}`) return binary;
  fs.mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `${packageName}@${VERSION}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0 || !fs.existsSync(binary)) throw new Error(`Could not install ${packageName}@${VERSION} from the npm registry.`);
  return binary;
}

function currentVersion(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(node22Path());
