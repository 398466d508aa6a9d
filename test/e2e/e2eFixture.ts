// What most e2e files open before their tests: a temporary workspace with a
// few files, the scripted model server, and code-server with Tandem pointed at
// it; and what they close after. Each file still says what is particular to
// it (its files, its settings), and keeps its parts in its own variables:
//   before(async () => ({ server, session, workspace } = await openVsCode({ name: 'approvals', ... })));
//   after(() => closeVsCode({ server, session, workspace }));
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type LaunchOptions, type VsCodeSession } from './harness';

export const FC_MODEL = 'fc-model';
export const ANSWER_MODEL = 'answer-model';

export interface OpenedVsCode {
  readonly server: ScriptedModelServer;
  readonly session: VsCodeSession;
  readonly workspace: string;
}

export interface OpenOptions {
  /** Names the workspace folder (`tandem-<name>-…`). */
  readonly name: string;
  /** Workspace files to write first, by relative path (folders are made). */
  readonly files?: Readonly<Record<string, string>>;
  /** The models the server lists (default: the function-call and the answer model). */
  readonly models?: readonly string[];
  /** Settings over the two scripted models in agent mode; a function gets the server (for its URL). */
  readonly settings?: Readonly<Record<string, unknown>> | ((server: ScriptedModelServer) => Record<string, unknown>);
  /** The rest of the launch (user data dir, Workspace Trust, …). */
  readonly launch?: Omit<LaunchOptions, 'workspace' | 'settings'>;
}

/** The function-call and answer models on `server`, in agent mode: what most files start from. */
export function scriptedModelSettings(server: ScriptedModelServer): Record<string, unknown> {
  return {
    'tandem.functionCallModel.baseUrl': server.baseUrl,
    'tandem.functionCallModel.model': FC_MODEL,
    'tandem.answerModel.model': ANSWER_MODEL,
    'tandem.agent.mode': 'agent',
  };
}

/** Writes `files` under `root`, making their folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

export async function openVsCode(options: OpenOptions): Promise<OpenedVsCode> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), `tandem-${options.name}-`));
  let server: ScriptedModelServer | undefined;
  try {
    writeFiles(workspace, options.files ?? {});
    server = await startScriptedModelServer({ models: [...(options.models ?? [FC_MODEL, ANSWER_MODEL])] });
    const extra = typeof options.settings === 'function' ? options.settings(server) : (options.settings ?? {});
    const session = await launchVsCode({ ...options.launch, workspace, settings: { ...scriptedModelSettings(server), ...extra } });
    return { server, session, workspace };
  } catch (error) {
    // The caller never gets the parts, so its `after` cannot close them.
    await closeVsCode({ server, workspace });
    throw error;
  }
}

/** Closes what `openVsCode` opened (any part may be missing when `before` failed). */
export async function closeVsCode(parts: Partial<OpenedVsCode>): Promise<void> {
  await parts.session?.close();
  await parts.server?.close();
  if (parts.workspace) fs.rmSync(parts.workspace, { recursive: true, force: true });
}
