// The user's MCP server decisions: per workspace, server and definition hash
// (src/mcp/mcpServerTrust.ts), kept in global state so a workspace cannot
// write them. A modal names what would run or where requests would go.
import * as vscode from 'vscode';
import { consentKey, describeForConsent, type StartableDefinition } from '../mcp/mcpServerTrust';
import { workspaceKey } from './workspaceIdentity';

const stateKey = 'tandem.mcpTrust';
type Decision = 'allow' | 'deny';

export class McpTrustStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly globalState: vscode.Memento,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  private decisions(): Record<string, Decision> {
    return this.globalState.get<Record<string, Decision>>(stateKey) ?? {};
  }

  decision(definition: StartableDefinition): Decision | undefined {
    return this.decisions()[consentKey(workspaceKey(), definition)];
  }

  /** Asks (one modal at a time) and remembers the answer; a dismissed dialog decides nothing. */
  ask(definition: StartableDefinition): Promise<boolean> {
    const asked = this.queue.then(() => this.askNow(definition));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private async askNow(definition: StartableDefinition): Promise<boolean> {
    const known = this.decision(definition);
    if (known !== undefined) return known === 'allow';
    const allow = 'Allow';
    const deny = "Don't Allow";
    const choice = await vscode.window.showWarningMessage(
      `Start the MCP server "${definition.name}" defined by this workspace?`,
      {
        modal: true,
        detail: `${describeForConsent(definition, this.env)}\n\n${riskOf(definition)} Allow it only if you trust this workspace. Tandem asks again if the definition changes.`,
      },
      // The safe answer first: it is the button Enter presses.
      deny,
      allow,
    );
    if (choice === undefined) return false;
    await this.globalState.update(stateKey, { ...this.decisions(), [consentKey(workspaceKey(), definition)]: choice === allow ? 'allow' : 'deny' });
    return choice === allow;
  }

  /** Forgets every decision (`tandem.resetMcpTrust`). */
  async reset(): Promise<void> {
    await this.globalState.update(stateKey, undefined);
  }
}

/** What allowing the server risks: a local process has the user's rights; a remote one gets what the model sends it. */
function riskOf(definition: StartableDefinition): string {
  return definition.type === 'stdio'
    ? 'The server runs on this machine with your rights.'
    : 'The server is reached over the network: what the model sends its tools (file contents included) goes there, with the headers listed above.';
}
