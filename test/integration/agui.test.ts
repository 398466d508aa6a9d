// The AG-UI endpoint in a real VS Code: `tandem.agui.enabled` (a user
// setting) starts it on 127.0.0.1, Copy AG-UI Endpoint copies the URL and the
// bearer token, a run with that token streams the panel's events from the
// scripted model, and turning the setting off closes the port.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { startScriptedModelServer } from '../fixtures/scriptedModelServer';

const keys = ['agui.enabled', 'agui.port', 'functionCallModel.baseUrl', 'functionCallModel.model', 'answerModel.model', 'agent.mode', 'agent.customAgent'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function within<T>(promise: Thenable<T>, ms: number, what: string): Promise<T> {
  return Promise.race([Promise.resolve(promise), new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);
}

describe('AG-UI endpoint in VS Code', () => {
  const configuration = () => vscode.workspace.getConfiguration('tandem');
  const saved = new Map<string, unknown>();

  before(() => {
    for (const key of keys) saved.set(key, configuration().inspect(key)?.globalValue);
  });
  after(async () => {
    for (const key of keys) await configuration().update(key, saved.get(key), vscode.ConfigurationTarget.Global);
  });

  it('tandem.agui.enabled starts the endpoint; the copied token runs the agent; off closes it', async function () {
    this.timeout(60_000);
    await vscode.extensions.getExtension('tandem-dev.tandem')?.activate();
    const model = await startScriptedModelServer({ turns: [{ model: 'vs-answer', content: 'Hello from VS Code.' }] });
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/agui`;
      const global = vscode.ConfigurationTarget.Global;
      await configuration().update('functionCallModel.baseUrl', model.baseUrl, global);
      await configuration().update('functionCallModel.model', 'vs-answer', global);
      await configuration().update('answerModel.model', '', global);
      await configuration().update('agent.mode', 'chat', global);
      await configuration().update('agui.port', port, global);
      await configuration().update('agui.enabled', true, global);

      const unauthorized = await until(async () => (await fetch(url, { method: 'POST', body: '{}' })).status, 'the endpoint to listen');
      assert.equal(unauthorized, 401);

      const copied = await within(vscode.commands.executeCommand<{ url: string } | undefined>('tandem.copyAgUiEndpoint'), 10_000, 'tandem.copyAgUiEndpoint');
      assert.equal(copied?.url, url);
      const clipboard = await within(vscode.env.clipboard.readText(), 10_000, 'reading the clipboard');
      const token = /Authorization: Bearer (\S+)/.exec(clipboard)?.[1];
      assert.ok(token, `the clipboard holds the token line: ${JSON.stringify(clipboard.replace(/Bearer \S+/, 'Bearer ***'))}`);
      assert.ok(clipboard.startsWith(url));

      // The repository's rules reach a run over AG-UI as they reach the panel's.
      const rulesFile = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'AGENTS.md');
      await vscode.workspace.fs.writeFile(rulesFile, new TextEncoder().encode('Answer in one short line.\n'));
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 'vs', runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'Hi' }] }),
      });
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.match(text, /"type":"RUN_STARTED"/);
      assert.match(text, /"type":"TEXT_MESSAGE_CONTENT"/);
      assert.match(text, /"type":"RUN_FINISHED".*"answer":"Hello from VS Code\."/s);
      const system = model.requests[0]?.messages.find((message: { role: string }) => message.role === 'system');
      assert.match(String(system?.content), /AGENTS\.md[\s\S]*Answer in one short line\./);
      await vscode.workspace.fs.delete(rulesFile);
      const foreign = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' }, body: '{}' });
      assert.equal(foreign.status, 403);

      // Agent mode in VS Code: an edit is an interrupt; the resume approves it and VS Code writes the file.
      // The panel's custom agent works here too: its text in the rules, its tools the only ones offered.
      const agentFile = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.tandem', 'agents', 'writer.md');
      await vscode.workspace.fs.writeFile(agentFile, new TextEncoder().encode("---\ntools: ['editFiles']\n---\nWrite notes. WRITER-MARKER-7313\n"));
      await configuration().update('agent.customAgent', 'writer', global);
      await configuration().update('agent.mode', 'agent', global);
      const firstEditRequest = model.requests.length;
      model.push(
        { model: 'vs-answer', toolCalls: [{ id: 'call-note', name: 'write_file', arguments: { path: 'agui-note.md', content: 'Written over AG-UI.\n' } }] },
        { model: 'vs-answer', content: 'I wrote agui-note.md.' },
      );
      const post = (body: unknown) =>
        fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((reply) => reply.text());
      const ask = { threadId: 'vs-edit', runId: 'e1', messages: [{ id: 'u2', role: 'user', content: 'Write a note.' }] };
      const interrupted = await post(ask);
      const interruptId = /"interrupts":\[\{"id":"([^"]+)"/.exec(interrupted)?.[1];
      assert.ok(interruptId, interrupted.slice(-600));
      const note = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'agui-note.md');
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(note)), 'nothing written before the approval');
      const resumed = await post({ ...ask, runId: 'e2', resume: [{ interruptId, status: 'resolved', payload: { approved: true } }] });
      assert.match(resumed, /"type":"RUN_FINISHED".*"answer":"I wrote agui-note\.md\."/s);
      assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(note)), 'Written over AG-UI.\n');
      const editRequest = model.requests[firstEditRequest]!;
      assert.match(String(editRequest.messages.find((message: { role: string }) => message.role === 'system')?.content), /The custom agent "writer"[\s\S]*WRITER-MARKER-7313/);
      assert.deepEqual(editRequest.tools?.map((tool: { function: { name: string } }) => tool.function.name).sort(), ['create_directory', 'delete_file', 'edit_file', 'write_file']);
      assert.match(interrupted, /This message may use only the tools the custom agent \\"writer\\" names/);
      await configuration().update('agent.customAgent', undefined, global);
      await vscode.workspace.fs.delete(agentFile);
      // The note stays: the suite's scratch workspace goes away with it (deleting it here upsets the diff tests that follow).

      await configuration().update('agui.enabled', false, global);
      await until(async () => {
        try {
          await fetch(url, { method: 'POST', body: '{}' });
          return undefined;
        } catch {
          return true;
        }
      }, 'the endpoint to close');
    } finally {
      await model.close();
    }
  });
});
