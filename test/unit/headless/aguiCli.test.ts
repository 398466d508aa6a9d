// The headless server as a real child process: `npm run agui -- --folder DIR
// --settings FILE`, reading LISTENING and TOKEN from its stdout, then an
// AG-UI client run against it (the workspace tools on DIR, the scripted model).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { HttpAgent } from '@ag-ui/client';
import { startScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { FAULT_SERVER } from '../mcp/mcpTestSupport';

const root = path.resolve(__dirname, '..', '..', '..');
const children: ChildProcess[] = [];
const folders: string[] = [];
after(() => {
  // npm, sh and node share the group started with `detached`.
  for (const child of children) {
    if (child.exitCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone (a test ended it).
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'tandem-agui-cli-'));
  folders.push(folder);
  return folder;
}

/** Starts `npm run agui -- ...args`; resolves with the contract lines once LISTENING was printed. */
function startCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = root): Promise<{ url: string; token: string | undefined; child: ChildProcess; stderr: () => string }> {
  const child = spawn('npm', ['--prefix', root, 'run', '--silent', 'agui', '--', ...args], { cwd, detached: true, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    let token: string | undefined;
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`no LISTENING line in 20 s; stderr: ${stderr}`)), 20_000);
    let url: string | undefined;
    // Without --token the CLI prints TOKEN right after LISTENING: wait for both lines, not for a time.
    const expectsToken = !args.some((arg) => arg === '--token' || arg.startsWith('--token='));
    lines.on('line', (line) => {
      const match = /^(LISTENING|TOKEN) (\S+)$/.exec(line);
      if (!match) return;
      if (match[1] === 'TOKEN') token = match[2];
      else url = match[2];
      if (url !== undefined && (token !== undefined || !expectsToken)) {
        clearTimeout(timer);
        resolve({ url, token, child, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => reject(new Error(`agui exited with ${code}; stderr: ${stderr}`)));
  });
}

it('npm run agui serves the workspace of --folder with the settings of --settings, and prints LISTENING and TOKEN', { timeout: 60_000 }, async () => {
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc', toolCalls: [{ id: 'call-1', name: 'read_file', arguments: { path: 'notes.md' } }] },
      { model: 'fc', content: 'Found it.' },
      { model: 'writer', content: 'The owner is Ada.' },
    ],
  });
  try {
    const folder = tempFolder();
    writeFileSync(path.join(folder, 'notes.md'), 'The release is on Tuesday; the owner is Ada.\n');
    writeFileSync(path.join(folder, 'AGENTS.md'), 'Name the file behind every fact.\n');
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc', 'tandem.answerModel.model': 'writer', 'tandem.agent.maxIterations': 99, 'editor.fontSize': 14 }),
    );
    const started = Date.now();
    const cli = await startCli(['--folder', folder, '--settings', settings], { OPENAI_API_KEY: '' });
    const startMs = Date.now() - started;
    assert.match(cli.url, /^http:\/\/127\.0\.0\.1:\d+\/agui$/);
    assert.match(String(cli.token), /^[A-Za-z0-9_-]{40,}$/);
    assert.match(cli.stderr(), /tandem\.agent\.maxIterations = 99 is out of range \(1 to 10\); using 10\./);

    const agent = new HttpAgent({ url: cli.url, headers: { authorization: `Bearer ${cli.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'Who owns the release?' }] });
    const { result, newMessages } = await agent.runAgent();
    assert.deepEqual(result, { stopReason: 'noToolCall', answer: 'The owner is Ada.' });
    assert.match(String(newMessages.find((message) => message.role === 'tool')?.content), /the owner is Ada/);
    // The repository's rules reach both models, as in the panel.
    const systemPrompts = model.requests.map((request) => String(request.messages.find((message: { role: string }) => message.role === 'system')?.content));
    assert.equal(systemPrompts.length, 3);
    for (const prompt of systemPrompts) assert.match(prompt, /AGENTS\.md[\s\S]*Name the file behind every fact\./);
    const refused = await fetch(cli.url, { method: 'POST', body: '{}' });
    assert.equal(refused.status, 401);
    assert.ok(startMs < 15_000, `started in ${startMs} ms`);
  } finally {
    await model.close();
  }
});

it('npm run agui with --token prints no TOKEN line and accepts that token; bad arguments exit 2 with the usage, --help 0', { timeout: 60_000 }, async () => {
  const token = 'my-own-token-0123456789';
  const cli = await startCli(['--folder', tempFolder(), '--token', token, '--port', '0', '--approve', 'none']);
  assert.equal(cli.token, undefined);
  const refused = await fetch(cli.url, { method: 'POST', headers: { authorization: 'Bearer wrong-token-0123456789' }, body: '{}' });
  assert.equal(refused.status, 401);
  const accepted = await fetch(cli.url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
  assert.equal(accepted.status, 400);

  const bad = spawnSync(process.execPath, ['scripts/agui.mjs', '--folder', tempFolder(), '--approve', 'sometimes'], { cwd: root, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--approve must be readOnly, all or none/);
  assert.match(bad.stderr, /usage: npm run agui/);
  assert.equal(bad.stdout, '');
  const help = spawnSync(process.execPath, ['scripts/agui.mjs', '--help'], { cwd: root, encoding: 'utf8' });
  assert.deepEqual([help.status, help.stderr], [0, ''], 'asked for, the usage is an answer');
  assert.match(help.stdout, /^usage: npm run agui/);
});

it('without OPENAI_API_KEY for OpenAI\'s host, npm run agui says so at start and each run ends with that reason before any request', { timeout: 60_000 }, async () => {
  const cli = await startCli(['--folder', tempFolder()], { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', AGENT_FUNCTION_CALL_MODEL: '', AGENT_ANSWER_MODEL: '' });
  assert.match(cli.stderr(), /models: No API key for https:\/\/api\.openai\.com\/v1\. Set OPENAI_API_KEY in the environment of `npm run agui`/);
  const response = await fetch(cli.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${cli.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ threadId: 't1', runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'Hi' }], tools: [], context: [], state: {}, forwardedProps: {} }),
  });
  const events = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; code?: string; message?: string });
  assert.deepEqual(events.map((event) => event.type), ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_ERROR']);
  assert.equal(events[2]?.code, 'CONFIGURATION_ERROR');
  assert.match(String(events[2]?.message), /^No API key for https:\/\/api\.openai\.com\/v1\. Set OPENAI_API_KEY/);
});

it('the MCP servers of DIR/.vscode/mcp.json start only with --allow-mcp', { timeout: 60_000 }, async () => {
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc', content: 'Without MCP.' },
      { model: 'fc', content: 'With MCP.' },
    ],
  });
  try {
    const folder = tempFolder();
    mkdirSync(path.join(folder, '.vscode'));
    writeFileSync(path.join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { fault: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] } } }));
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc' }));
    const toolNamesOfRun = async (args: string[]) => {
      const cli = await startCli(['--folder', folder, '--settings', settings, ...args]);
      const agent = new HttpAgent({ url: cli.url, headers: { authorization: `Bearer ${cli.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'Hi' }] });
      await agent.runAgent();
      process.kill(-cli.child.pid!, 'SIGTERM');
      return { tools: (model.requests.at(-1)!.tools ?? []).map((tool: any) => tool.function.name as string), stderr: cli.stderr() };
    };
    const without = await toolNamesOfRun([]);
    assert.ok(without.tools.includes('read_file'));
    assert.ok(!without.tools.some((name) => name.startsWith('fault__')), without.tools.join(', '));
    assert.match(without.stderr, /pass --allow-mcp to start them/);
    const withMcp = await toolNamesOfRun(['--allow-mcp']);
    assert.ok(withMcp.tools.includes('fault__hang'), withMcp.tools.join(', '));
  } finally {
    await model.close();
  }
});

it('with --allow-mcp, an mcp.json that is a FIFO or links to /dev/zero is refused with the reason, and the server still starts', { timeout: 60_000 }, async () => {
  const fifo = tempFolder();
  mkdirSync(path.join(fifo, '.vscode'));
  // A tarball can hold one: read, it would wait for a writer forever, before LISTENING.
  spawnSync('mkfifo', [path.join(fifo, '.vscode', 'mcp.json')]);
  const zero = tempFolder();
  mkdirSync(path.join(zero, '.vscode'));
  symlinkSync('/dev/zero', path.join(zero, '.vscode', 'mcp.json'));
  for (const folder of [fifo, zero]) {
    // LISTENING comes only after the MCP servers were started (here: none).
    const cli = await startCli(['--folder', folder, '--allow-mcp']);
    const said = `mcp: ${path.join(folder, '.vscode', 'mcp.json')}: cannot be read: it is not a regular file`;
    // stderr is its own pipe: the line may arrive a moment after stdout's.
    for (let waited = 0; !cli.stderr().includes(said) && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(-cli.child.pid!, 'SIGTERM');
    assert.ok(cli.stderr().includes(said), cli.stderr());
  }
});

it('headless with --allow-mcp: a run hears once of a server that failed, and the run right after a crash waits for the restart', { timeout: 60_000 }, async () => {
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc', toolCalls: [{ id: 'c1', name: 'fault__crash', arguments: {} }] },
      { model: 'fc', content: 'The server crashed.' },
      { model: 'fc', content: 'Second run.' },
    ],
  });
  try {
    const folder = tempFolder();
    mkdirSync(path.join(folder, '.vscode'));
    const servers = { fault: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] }, broken: { type: 'stdio', command: path.join(folder, 'no-such-server') } };
    writeFileSync(path.join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc' }));
    const cli = await startCli(['--folder', folder, '--settings', settings, '--allow-mcp', '--approve', 'all']);
    const run = async (id: string) => {
      const notices: { code: string; message: string }[] = [];
      const agent = new HttpAgent({ url: cli.url, headers: { authorization: `Bearer ${cli.token}` }, threadId: id, initialMessages: [{ id, role: 'user', content: 'Use the server.' }] });
      const { result } = await agent.runAgent({}, { onCustomEvent: ({ event }) => void (event.name === 'tandem.notice' && notices.push(event.value)) });
      return { result, notices, tools: (model.requests.at(-1)!.tools ?? []).map((tool: any) => tool.function.name as string) };
    };
    const first = await run('t1');
    assert.deepEqual(
      first.notices.filter((notice) => notice.code === 'mcpFailed').map((notice) => notice.message),
      [`An MCP server did not start. "broken": Could not start "${servers.broken.command}": command not found (ENOENT). Check "command" in ${path.join(folder, '.vscode', 'mcp.json')}. This run goes on without its tools; the next run tries again.`],
    );
    assert.match(String(model.requests[1]!.messages.find((message: { role: string }) => message.role === 'tool')?.content), /stopped during the call to "crash"/);
    const second = await run('t2');
    assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Second run.' });
    assert.ok(second.tools.includes('fault__hang'), `the restarted server's tools are offered: ${second.tools.join(', ')}`);
    assert.deepEqual(second.notices.filter((notice) => notice.code === 'mcpFailed'), [], 'a failure is told once');
  } finally {
    await model.close();
  }
});

it('headless approvals: by default a write is an interrupt the resume approves; --approve all writes without asking', { timeout: 60_000 }, async () => {
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc', toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'one.md', content: 'one\n' } }] },
      { model: 'fc', content: 'I wrote one.md.' },
      { model: 'fc', toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'two.md', content: 'two\n' } }] },
      { model: 'fc', content: 'I wrote two.md.' },
    ],
  });
  try {
    const folder = tempFolder();
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc', 'tandem.agent.minResultLength': 0 }));

    const asking = await startCli(['--folder', folder, '--settings', settings]);
    const agent = new HttpAgent({ url: asking.url, headers: { authorization: `Bearer ${asking.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'Write one.md.' }] });
    let outcome: any;
    await agent.runAgent({}, { onRunFinishedEvent: (params: any) => void (outcome = params) });
    assert.equal(outcome?.outcome, 'interrupt');
    assert.equal(existsSync(path.join(folder, 'one.md')), false);
    const [interrupt] = agent.pendingInterrupts;
    const { result } = await agent.runAgent({ resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] });
    assert.deepEqual(result, { stopReason: 'noToolCall', answer: 'I wrote one.md.' });
    assert.equal(readFileSync(path.join(folder, 'one.md'), 'utf8'), 'one\n');
    process.kill(-asking.child.pid!, 'SIGTERM');

    const trusting = await startCli(['--folder', folder, '--settings', settings, '--approve', 'all']);
    const second = new HttpAgent({ url: trusting.url, headers: { authorization: `Bearer ${trusting.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'Write two.md.' }] });
    const run = await second.runAgent();
    assert.deepEqual(run.result, { stopReason: 'noToolCall', answer: 'I wrote two.md.' });
    assert.equal(readFileSync(path.join(folder, 'two.md'), 'utf8'), 'two\n');
  } finally {
    await model.close();
  }
});

it('headless, the settings\' custom agent works as in VS Code: its text in the rules, its tools the only ones offered', { timeout: 60_000 }, async () => {
  const model = await startScriptedModelServer({ turns: [{ model: 'fc', content: 'Ready to write.' }] });
  try {
    const folder = tempFolder();
    mkdirSync(path.join(folder, '.tandem', 'agents'), { recursive: true });
    writeFileSync(path.join(folder, '.tandem', 'agents', 'scribe.md'), "---\ntools: ['editFiles']\n---\nWrite, never run. SCRIBE-MARKER-5521\n");
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc', 'tandem.agent.customAgent': 'scribe' }));
    const cli = await startCli(['--folder', folder, '--settings', settings]);
    const agent = new HttpAgent({ url: cli.url, headers: { authorization: `Bearer ${cli.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'Get ready.' }] });
    const notices: string[] = [];
    const run = await agent.runAgent({}, { onCustomEvent: ({ event }: any) => void (event.name === 'tandem.notice' && notices.push(event.value.message)) });
    assert.deepEqual(run.result, { stopReason: 'noToolCall', answer: 'Ready to write.' });
    const [request] = model.requests;
    assert.match(String(request?.messages.find((message: { role: string }) => message.role === 'system')?.content), /The custom agent "scribe"[\s\S]*SCRIBE-MARKER-5521/);
    assert.deepEqual(request?.tools?.map((tool: { function: { name: string } }) => tool.function.name).sort(), ['create_directory', 'delete_file', 'edit_file', 'write_file']);
    assert.ok(notices.some((message) => message.startsWith('This message may use only the tools the custom agent "scribe" names: ')), notices.join(' | '));
  } finally {
    await model.close();
  }
});

it('headless fetch_url: the site is an interrupt even with --approve all; approved, the page reaches the model as Markdown', { timeout: 60_000 }, async () => {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<html><head><title>Release plan</title></head><body><h1>Release</h1><p>Ships on <b>Friday</b>.</p></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/plan`;
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc', toolCalls: [{ id: 'f1', name: 'fetch_url', arguments: { url: page } }] },
      { model: 'fc', content: 'It ships on Friday.' },
    ],
  });
  try {
    const folder = tempFolder();
    const settings = path.join(tempFolder(), 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': model.baseUrl, 'tandem.functionCallModel.model': 'fc', 'tandem.agent.minResultLength': 0 }));
    const cli = await startCli(['--folder', folder, '--settings', settings, '--approve', 'all']);
    const agent = new HttpAgent({ url: cli.url, headers: { authorization: `Bearer ${cli.token}` }, initialMessages: [{ id: 'u1', role: 'user', content: 'When does it ship? See the plan.' }] });
    let outcome: any;
    await agent.runAgent({}, { onRunFinishedEvent: (params: any) => void (outcome = params) });
    assert.equal(outcome?.outcome, 'interrupt', 'a site asks first, whatever --approve says');
    const [interrupt] = agent.pendingInterrupts;
    assert.match(JSON.stringify(interrupt), /Fetch http:\/\/127\.0\.0\.1:\d+\/plan/);
    const { result } = await agent.runAgent({ resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] });
    assert.deepEqual(result, { stopReason: 'noToolCall', answer: 'It ships on Friday.' });
    const sent = model.requests[1]!.messages.find((message: { role: string }) => message.role === 'tool');
    assert.match(String(sent?.content), /# Release\s+Ships on \*\*Friday\*\*\./);
  } finally {
    await model.close();
    site.close();
  }
});

it('relative paths mean the caller\'s directory, also through npm --prefix from elsewhere', { timeout: 60_000 }, async () => {
  const parent = tempFolder();
  mkdirSync(path.join(parent, 'project'));
  writeFileSync(path.join(parent, 'project', 'marker.md'), 'here\n');
  writeFileSync(path.join(parent, 'settings.json'), JSON.stringify({ 'tandem.agui.allowedOrigins': ['http://localhost:5173'] }));
  const cli = await startCli(['--folder', 'project', '--settings', 'settings.json'], {}, parent);
  const allowed = await fetch(cli.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
  assert.equal(allowed.status, 204, 'the settings file was read from the caller\'s directory');
  assert.doesNotMatch(cli.stderr(), /not a directory|Cannot read/);
});
