// run_command in plain Node (the child-process runner) through the real
// approval policy: exit codes, asking, always-allow by prefix, chains,
// autoApprove 'all', Restricted Mode, timeout and Stop ending the process tree,
// and the output cap.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createPolicyApprovalGate, type ApprovalPolicy } from '../../../src/agent/policyApprovalGate';
import { ChildProcessRunner } from '../../../src/tools/commandRunner';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import { createRunCommandTool } from '../../../src/tools/runCommandTool';
import type { ApprovalRequest, ToolResult } from '../../../src/tools/tool';
import { makeTempDir } from './workspaceTestKit';

const root = makeTempDir('tandem-cmd-');
after(() => rmSync(root, { recursive: true, force: true }));

interface Call {
  readonly result: ToolResult;
  readonly asked: ApprovalRequest[];
}

async function runCommand(
  args: Record<string, unknown>,
  options: {
    policy?: ApprovalPolicy;
    answer?: boolean;
    trusted?: boolean;
    signal?: AbortSignal;
    maxOutputChars?: number;
    runner?: ChildProcessRunner;
    changedInRun?: string[];
  } = {},
): Promise<Call> {
  const asked: ApprovalRequest[] = [];
  const gate = createPolicyApprovalGate(options.policy ?? { autoApprove: 'readOnly', alwaysAllow: [] }, async (request) => {
    asked.push(request);
    return options.answer ?? true;
  });
  const tool = createRunCommandTool({
    host: new NodeWorkspaceHost({ folders: [root] }),
    runner: options.runner ?? new ChildProcessRunner(),
    isTrusted: () => options.trusted ?? true,
    maxOutputChars: options.maxOutputChars,
    changedInRun: (runId) => (runId === 'r' ? (options.changedInRun ?? []) : []),
  });
  const result = await tool.run(args, { runId: 'r', callId: 'c', signal: options.signal ?? new AbortController().signal, approval: gate });
  return { result, asked };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (ended, not yet reaped: a container's PID 1 may never reap it) counts as ended.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** SIGTERM reaches the group at once; a loaded machine may take a moment to reap it. */
async function waitUntilGone(pid: number): Promise<void> {
  for (let waited = 0; isAlive(pid) && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('run_command', () => {
  it('asks with the exact command and folder, then gives the output, exit code and duration', async () => {
    const { result, asked } = await runCommand({ command: 'echo hello-from-echo' });
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.summary ?? '', /^Run `echo hello-from-echo` in \//);
    assert.ok(asked[0]!.summary!.endsWith(path.basename(root)), asked[0]!.summary);
    assert.deepEqual(asked[0]!.alwaysAllow, { key: 'run_command:echo', label: 'Always allow commands starting with echo' });
    assert.equal(result.isError, false);
    assert.match(result.text, /^\$ echo hello-from-echo\n\(in .*\) exit code 0, \d+ ms\n\nhello-from-echo$/);
  });

  it('a failing command reports its exit code as an error result', async () => {
    const { result } = await runCommand({ command: 'false' });
    assert.equal(result.isError, true);
    assert.match(result.text, /exit code 1,/);
    const seven = await runCommand({ command: 'echo oops >&2; exit 7' });
    assert.match(seven.result.text, /exit code 7,[^\n]*\n\noops$/);
    // The panel's collapsed step starts with how the command ended, not the command again.
    assert.deepEqual(seven.result.summary?.kind, 'text');
    assert.match(seven.result.summary?.kind === 'text' ? seven.result.summary.preview : '', /^exit code 7, \d+ ms\n\noops$/);
  });

  it('a declined command does not run, and is a rejection (its note reaches the model), not a failure', async () => {
    const { result } = await runCommand({ command: 'touch declined.txt' }, { answer: false });
    assert.equal(result.text, 'The user rejected running `touch declined.txt`; it did not run.');
    assert.equal(result.rejected, true);
    assert.notEqual(result.isError, true);
    assert.throws(() => readFileSync(path.join(root, 'declined.txt')));
  });

  it('always-allow by prefix runs unasked; a chain with an uncovered part asks', async () => {
    const policy = { autoApprove: 'readOnly', alwaysAllow: ['run_command:echo'] } as const;
    const allowed = await runCommand({ command: 'echo one && echo two' }, { policy });
    assert.equal(allowed.asked.length, 0);
    assert.match(allowed.result.text, /one\ntwo$/);
    const chained = await runCommand({ command: 'echo one && false' }, { policy });
    assert.equal(chained.asked.length, 1);
    assert.equal(chained.asked[0]!.alwaysAllow, null);
    const substituted = await runCommand({ command: 'echo $(id -u)' }, { policy });
    assert.equal(substituted.asked.length, 1);
  });

  it('an allowed command asks again once the run has changed the file that says what it runs (package.json for npm)', async () => {
    const policy = { autoApprove: 'all', alwaysAllow: ['run_command:npm --version'] } as const;
    assert.equal((await runCommand({ command: 'npm --version' }, { policy })).asked.length, 0);
    // Another file changed: still allowed.
    assert.equal((await runCommand({ command: 'npm --version' }, { policy, changedInRun: [path.join(root, 'src', 'index.ts')] })).asked.length, 0);
    const rewritten = await runCommand({ command: 'npm --version' }, { policy, changedInRun: [path.join(root, 'package.json')] });
    assert.equal(rewritten.asked.length, 1);
    assert.match(rewritten.asked[0]!.summary ?? '', /this run changed package\.json, which decides what it runs/);
  });

  it('the card names the package.json scripts a command runs', async () => {
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { test: 'node --test && curl example.com' } }));
    try {
      const { asked } = await runCommand({ command: 'npm test' }, { answer: false });
      assert.match(asked[0]!.summary ?? '', /^Run `npm test` in .+\nIt runs:\npackage\.json "test": node --test && curl example\.com$/u);
    } finally {
      rmSync(path.join(root, 'package.json'));
    }
  });

  it('a command stopped before it started is a cancellation, not a command that ran', async () => {
    const stop = new AbortController();
    stop.abort();
    const outcome = await new ChildProcessRunner().run({ command: 'touch never.txt', cwd: root, timeoutMs: 5000, maxOutputChars: 1000, signal: stop.signal });
    assert.equal(outcome.notStarted, true);
    assert.equal(existsSync(path.join(root, 'never.txt')), false);
  });

  it("asks even under autoApprove 'all'", async () => {
    const { asked } = await runCommand({ command: 'echo x' }, { policy: { autoApprove: 'all', alwaysAllow: [] } });
    assert.equal(asked.length, 1);
  });

  it('never runs in Restricted Mode, and does not ask', async () => {
    const { result, asked } = await runCommand({ command: 'touch restricted.txt' }, { trusted: false });
    assert.equal(asked.length, 0);
    assert.match(result.text, /Restricted Mode/);
    assert.throws(() => readFileSync(path.join(root, 'restricted.txt')));
  });

  it('refuses a folder outside the workspace', async () => {
    const { result, asked } = await runCommand({ command: 'ls', cwd: '..' });
    assert.equal(asked.length, 0);
    assert.equal(result.isError, true);
  });

  it('the timeout ends the whole process tree', async () => {
    const started = Date.now();
    const { result } = await runCommand({ command: 'sleep 30 & echo $! > child.pid; wait', timeoutSeconds: 1 });
    assert.ok(Date.now() - started < 10_000);
    assert.match(result.text, /timed out after 1 s/);
    const child = Number(readFileSync(path.join(root, 'child.pid'), 'utf8'));
    await waitUntilGone(child);
    assert.equal(isAlive(child), false, 'the background child was ended too');
  });

  it('Stop ends the process tree; what the command printed is still reported, as ended with the run', async () => {
    const controller = new AbortController();
    const pending = runCommand({ command: 'echo started; sleep 30 & echo $! > stop.pid; wait' }, { signal: controller.signal });
    // Abort only once the background child exists (a loaded machine may take a while to start the shell).
    for (let waited = 0; !existsSync(path.join(root, 'stop.pid')) && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const { result } = await pending;
    assert.match(result.text, /ended when the run was stopped \(by Stop or the run's time limit; the command and its children were ended\), \d+ ms\n\nstarted/u);
    assert.equal(result.isError, true);
    // Shown as stopped, not failed: the user ended it.
    assert.equal(result.stopped, true);
    const child = Number(readFileSync(path.join(root, 'stop.pid'), 'utf8'));
    await waitUntilGone(child);
    assert.equal(isAlive(child), false);
  });

  it('a process left running in the background does not hold the call: it returns once the shell exits, keeps running, and is ended when the runner is disposed', async () => {
    const started = Date.now();
    const runner = new ChildProcessRunner();
    const { result } = await runCommand({ command: 'sleep 30 & echo $! > background.pid; echo server started', timeoutSeconds: 20 }, { runner });
    const child = Number(readFileSync(path.join(root, 'background.pid'), 'utf8'));
    try {
      assert.ok(Date.now() - started < 8_000, `returned after ${Date.now() - started} ms`);
      assert.match(result.text, /\) exit code 0, \d+ ms\n\nserver started\n\n\[A process the command started is still running in the background; it is ended when VS Code closes\./u);
      assert.notEqual(result.isError, true);
      assert.equal(isAlive(child), true, 'left running, as the command asked');
      // A command that ended on its own leaves nothing for dispose to end.
      await runCommand({ command: 'echo done', timeoutSeconds: 20 }, { runner });
      runner.dispose();
      await waitUntilGone(child);
      assert.equal(isAlive(child), false, 'ended with the window');
    } finally {
      if (isAlive(child)) process.kill(child, 'SIGKILL');
    }
  });

  it('the timeout ends the call even when a process that left the group holds the output', async () => {
    const started = Date.now();
    const { result } = await runCommand({ command: 'setsid sleep 30 & echo $! > escaped.pid; sleep 30', timeoutSeconds: 1 });
    const escaped = Number(readFileSync(path.join(root, 'escaped.pid'), 'utf8'));
    try {
      assert.ok(Date.now() - started < 10_000, `returned after ${Date.now() - started} ms`);
      assert.match(result.text, /timed out after 1 s/u);
    } finally {
      if (isAlive(escaped)) process.kill(escaped, 'SIGKILL');
    }
  });

  it('stdout and stderr come as one stream, in the order the command wrote them', async () => {
    const { result } = await runCommand({ command: 'for i in $(seq 1 40); do echo out$i; echo err$i >&2; done', timeoutSeconds: 20 });
    const expected = Array.from({ length: 40 }, (_, index) => `out${index + 1}\nerr${index + 1}`).join('\n');
    assert.ok(result.text.includes(expected), result.text);
  });

  it('colours and progress redraws reach the model as plain lines; a kill by signal is named', async () => {
    const colours = await runCommand({ command: "printf '\\033[1;31mERROR\\033[0m build failed\\n'; printf 'Downloading 1\\rDownloading 2\\rDone\\n'" });
    assert.match(colours.result.text, /\n\nERROR build failed\nDone$/u);
    const killed = await runCommand({ command: 'echo before; kill -9 $$' });
    assert.match(killed.result.text, /\) killed by SIGKILL, \d+ ms\n\nbefore$/u);
    assert.equal(killed.result.isError, true);
  });

  it('long output keeps its head and tail', async () => {
    const { result } = await runCommand({ command: 'seq 1 100000' }, { maxOutputChars: 1000 });
    assert.match(result.text, /\n\n1\n2\n3\n/);
    assert.match(result.text, /characters of output not shown/);
    assert.match(result.text, /99999\n100000$/);
    assert.ok(result.text.length < 1300);
  });
});
