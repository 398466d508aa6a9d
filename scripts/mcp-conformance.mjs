// `npm run test:mcp-conformance`: every client scenario of the official MCP
// conformance suite, run against test/mcp-conformance/client.ts (Tandem's own
// MCP layer). The suite's runner needs Node 22 (installed by setup-node22);
// the client runs on the Node 20 in PATH through tsx, as the suite invokes any
// client. Ends with "N passed, N failed" (scenarios); `--json FILE` also
// writes those counts for scripts/run-tests.mjs. `--scenario NAME` runs one.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { node22Path } from './setup-node22.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT_COMMAND = 'tsx test/mcp-conformance/client.ts';
/** Two at a time: each scenario starts servers and a client process; the machines have two cores. */
const CONCURRENCY = 2;

function option(name) {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const node22 = node22Path();
const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };

function listClientScenarios() {
  const result = spawnSync(node22, [cli, 'list'], { cwd: root, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`conformance list failed: ${result.stderr}`);
  const section = result.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? '';
  return [...section.matchAll(/^\s+-\s+(\S+)/gm)].map((match) => match[1]);
}

function runScenario(scenario, outputDir) {
  return new Promise((resolve) => {
    const args = [cli, 'client', '--command', CLIENT_COMMAND, '--scenario', scenario, '-o', outputDir];
    const child = spawn(node22, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      const passed = code === 0 && /OVERALL: PASSED/.test(output);
      resolve({ scenario, passed, output });
    });
  });
}

const only = option('--scenario');
const scenarios = only === undefined ? listClientScenarios() : [only];
if (scenarios.length === 0) throw new Error('The conformance suite listed no client scenarios.');
const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-conformance-'));
const queue = [...scenarios];
const results = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const result = await runScenario(scenario, outputDir);
      results.push(result);
      console.log(`${result.passed ? 'PASS' : 'FAIL'} ${scenario}`);
      // eslint-disable-next-line no-control-regex
      if (!result.passed) console.log(result.output.replace(/\u001b\[[0-9;]*m/g, '').replace(/^/gm, '    '));
    }
  }),
);
fs.rmSync(outputDir, { recursive: true, force: true });
const passed = results.filter((result) => result.passed).length;
const failed = results.length - passed;
const jsonFile = option('--json');
if (jsonFile !== undefined) fs.writeFileSync(jsonFile, JSON.stringify({ passed, failed }));
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
