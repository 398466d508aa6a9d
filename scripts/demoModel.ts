// The demo model of `npm run vscode -- --demo`: the project's scripted
// OpenAI-compatible server (test/fixtures/scriptedModelServer.ts) with a short
// demo script, so a newcomer sees a whole run — two tool calls, the switch to
// the answer model, a streamed answer, the usage — with no key and no model.
// It is labelled as what it is in its model names and in every answer.
//
// CLI (what scripts/launch-vscode.mjs runs):
//   node --import tsx scripts/demoModel.ts --workspace DIR --settings FILE
// creates the demo workspace DIR when missing, points the user settings FILE
// at the demo model, prints `READY <baseUrl>` and serves until killed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedTurn } from '../test/fixtures/scriptedModelServer';

export const DEMO_FUNCTION_CALL_MODEL = 'demo-function-call-model';
export const DEMO_ANSWER_MODEL = 'demo-answer-model';

/** The demo's answer: the same for every question, and it says so. */
export const DEMO_ANSWER =
  "This is Tandem's demo model, a scripted stand-in rather than a real model, so every question gets this same answer. " +
  'To answer "{{lastUser}}" the function-call model listed the workspace (list_dir) and read README.md (read_file); ' +
  'then the answer model wrote this reply from what was gathered, streamed as you see it. ' +
  'For real answers, run Tandem: Set API Key for OpenAI, or point tandem.functionCallModel.baseUrl at a local server such as Ollama or LM Studio ' +
  '(Tandem: Select Models picks the model).';

/**
 * Matched by the shape of each request, so it serves any number of questions:
 * no tool results yet -> list the workspace; one -> read README.md; more ->
 * done; a request without tools (the answer phase, or Chat mode) -> the answer.
 */
export const DEMO_TURNS: readonly ScriptedTurn[] = [
  {
    match: { tools: true, toolResults: 0 },
    reasoning: 'Demo model: first I look at what the workspace holds.',
    toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }],
    chunkDelayMs: 20,
  },
  {
    match: { tools: true, toolResults: 1 },
    reasoning: 'Demo model: README.md should say what this project is.',
    toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }],
    chunkDelayMs: 20,
  },
  { match: { tools: true }, content: 'Demo model: I have what I need.', chunkDelayMs: 20 },
  { match: { tools: false }, content: DEMO_ANSWER, chunkDelayMs: 25 },
];

/** The files of the demo workspace (`npm run vscode -- --demo`). */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Demo\n\nA small project to try Tandem on. Ask: "What does src/greet.ts export?"\n',
  'src/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'notes.md': '# Notes\n\n- The release is planned for Friday.\n- greet() needs a test.\n',
};

export function writeDemoWorkspace(directory: string): void {
  if (fs.existsSync(directory)) return;
  for (const [name, text] of Object.entries(DEMO_FILES)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.writeFileSync(path.join(directory, name), text);
  }
}

/** The user settings that point Tandem at the demo model. */
export function demoSettings(baseUrl: string): Record<string, unknown> {
  return {
    'tandem.functionCallModel.provider': 'openai',
    'tandem.functionCallModel.baseUrl': baseUrl,
    'tandem.functionCallModel.model': DEMO_FUNCTION_CALL_MODEL,
    'tandem.answerModel.model': DEMO_ANSWER_MODEL,
    'tandem.answerModel.baseUrl': '',
    'tandem.agent.mode': 'agent',
  };
}

/** Merges the demo settings into a settings.json (created when missing); a file that is not plain JSON is left alone. */
export function pointSettingsAtDemo(settingsFile: string, baseUrl: string): boolean {
  let current: Record<string, unknown> = {};
  if (fs.existsSync(settingsFile)) {
    try {
      current = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    } catch {
      return false;
    }
  }
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(settingsFile, JSON.stringify({ ...current, ...demoSettings(baseUrl) }, null, 2));
  return true;
}

export function startDemoModel(port?: number): Promise<ScriptedModelServer> {
  return startScriptedModelServer({ turns: [...DEMO_TURNS], models: [DEMO_FUNCTION_CALL_MODEL, DEMO_ANSWER_MODEL], ...(port ? { port } : {}) });
}

function argument(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: readonly string[]): Promise<void> {
  const workspace = argument(args, '--workspace');
  const settingsFile = argument(args, '--settings');
  if (workspace) writeDemoWorkspace(workspace);
  const server = await startDemoModel();
  if (settingsFile && !pointSettingsAtDemo(settingsFile, server.baseUrl)) {
    process.stderr.write(`demo model: ${settingsFile} is not plain JSON; set tandem.functionCallModel.baseUrl to ${server.baseUrl} yourself.\n`);
  }
  process.stdout.write(`READY ${server.baseUrl}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (typeof require !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`demo model: ${String(error)}\n`);
    process.exit(1);
  });
}
