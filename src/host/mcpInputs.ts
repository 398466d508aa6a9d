// Asks for the `${input:id}` values of mcp.json once: password inputs are kept
// in SecretStorage, the others in workspace state, so a restart does not ask again.
// Values are kept per workspace, config file and id: another workspace's (or
// file's) mcp.json naming the same id never receives them.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mcpInputStorageKey } from '../mcp/mcpInputKey';
import type { McpInputDefinition } from '../mcp/mcpConfig';
import { inputPromptTitle } from '../mcp/mcpInputPrompt';
import type { InputAsker, InputResolver } from '../mcp/mcpVariables';
import { workspaceKey } from './workspaceIdentity';

const secretPrefix = 'tandem.mcpInput:';
const stateKey = 'tandem.mcpInputs';

export class VscodeInputResolver implements InputResolver {
  /** One prompt per id at a time: two servers needing the same input ask once. */
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  resolve(input: McpInputDefinition, signal: AbortSignal, asker: InputAsker = { file: 'settings', server: 'an MCP server' }): Promise<string | undefined> {
    const key = mcpInputStorageKey(workspaceKey(), asker.file, input.id);
    let answer = this.pending.get(key);
    if (answer === undefined) {
      answer = this.lookUpOrAsk(input, key, asker, signal).finally(() => this.pending.delete(key));
      this.pending.set(key, answer);
    }
    return answer;
  }

  /** Keeps a password value for `${input:id}` of `file` (the Claude-config import moves secrets here). */
  async storeSecret(file: string, id: string, value: string): Promise<void> {
    const key = mcpInputStorageKey(workspaceKey(), file, id);
    await this.secrets.store(secretPrefix + key, value);
    const ids = new Set(this.state.get<string[]>(`${stateKey}.secretIds`) ?? []);
    await this.state.update(`${stateKey}.secretIds`, [...ids.add(key)]);
  }

  /** Forgets every stored value (the quick pick offers it); the next start asks again. */
  async clear(): Promise<void> {
    const ids = this.state.get<string[]>(`${stateKey}.secretIds`) ?? [];
    await Promise.all(ids.map((id) => this.secrets.delete(secretPrefix + id)));
    await this.state.update(`${stateKey}.secretIds`, []);
    await this.state.update(stateKey, undefined);
  }

  private async lookUpOrAsk(input: McpInputDefinition, key: string, asker: InputAsker, signal: AbortSignal): Promise<string | undefined> {
    const known = input.password ? await this.secrets.get(secretPrefix + key) : this.state.get<Record<string, string>>(stateKey)?.[key];
    if (known !== undefined) return known;
    // Prompts come one after another, never stacked.
    const asked = this.queue.then(() => (signal.aborted ? undefined : this.ask(input, asker, signal)));
    this.queue = asked.catch(() => undefined);
    const value = await asked;
    if (value === undefined) return undefined;
    if (input.password) {
      await this.secrets.store(secretPrefix + key, value);
      const ids = new Set(this.state.get<string[]>(`${stateKey}.secretIds`) ?? []);
      await this.state.update(`${stateKey}.secretIds`, [...ids.add(key)]);
    } else {
      await this.state.update(stateKey, { ...(this.state.get<Record<string, string>>(stateKey) ?? {}), [key]: value });
    }
    return value;
  }

  private async ask(input: McpInputDefinition, asker: InputAsker, signal: AbortSignal): Promise<string | undefined> {
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      // The title is Tandem's words (who asks, from which file); the description is the config file's.
      const title = inputPromptTitle(input, asker, displayFile(asker.file));
      const description = input.description ?? `A value for \${input:${input.id}}`;
      if (input.type === 'pickString') {
        const picked = await vscode.window.showQuickPick(
          input.options.map((option) => ({ label: option, picked: option === input.default })),
          { title, placeHolder: description, ignoreFocusOut: true },
          cancel.token,
        );
        return picked?.label;
      }
      return await vscode.window.showInputBox(
        { title, prompt: description, value: input.default, password: input.password, ignoreFocusOut: true },
        cancel.token,
      );
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }
}

/** A config file as the user knows it: relative to its workspace folder when it is inside one. */
function displayFile(file: string): string {
  return path.isAbsolute(file) ? vscode.workspace.asRelativePath(file, true) : file;
}
