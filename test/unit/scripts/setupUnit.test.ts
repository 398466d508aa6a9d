// scripts/setup-unit.sh on a machine without rg: it asks apt for Debian's
// ripgrep (update, then install) before the unit suite runs. apt-get,
// dpkg-query and sudo are stand-ins that record their arguments; bash and the
// shell utilities are the real ones, on a PATH that has no rg.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

const root = path.resolve(__dirname, '..', '..', '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-setup-unit-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function which(program: string): string {
  return execFileSync('bash', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
}

/** A bin folder with the real tools the scripts use, fakes for apt, and no rg. */
function fakeMachine(installed: boolean): { bin: string; log: string } {
  const bin = fs.mkdtempSync(path.join(scratch, 'bin-'));
  const log = path.join(bin, 'calls.log');
  for (const program of ['bash', 'grep', 'id', 'env', 'dirname']) fs.symlinkSync(which(program), path.join(bin, program));
  const fake = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!${which('bash')}\n${body}\n`, { mode: 0o755 });
  fake('dpkg-query', installed ? `echo 'install ok installed'` : 'exit 1');
  fake('apt-get', `echo "apt-get $*" >> ${JSON.stringify(log)}`);
  fake('sudo', `echo "sudo" >> ${JSON.stringify(log)}; exec "$@"`);
  return { bin, log };
}

function runSetup(bin: string): string {
  return execFileSync(path.join(bin, 'bash'), [path.join(root, 'scripts', 'setup-unit.sh')], { env: { PATH: bin }, encoding: 'utf8' });
}

describe('scripts/setup-unit.sh', () => {
  it('installs Debian ripgrep when rg is missing, after apt-get update', () => {
    const { bin, log } = fakeMachine(false);
    const output = runSetup(bin);
    assert.match(output, /installing Debian packages: ripgrep/);
    const calls = fs.readFileSync(log, 'utf8').split('\n').filter((line) => line.startsWith('apt-get'));
    assert.equal(calls.length, 2, calls.join('\n'));
    assert.match(calls[0] ?? '', /apt-get .*update/);
    assert.match(calls[1] ?? '', /apt-get .*install -y -q --no-install-recommends ripgrep$/);
  });

  it('installs nothing when the package is there', () => {
    const { bin, log } = fakeMachine(true);
    assert.match(runSetup(bin), /Debian packages present: ripgrep/);
    assert.equal(fs.existsSync(log), false);
  });
});
