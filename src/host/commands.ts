// The palette commands. Cheap to load: each command asks for the panel host
// only when run, so activation does not pull in the loop, zod or openai.
import * as vscode from 'vscode';
import { toolPathOf } from './workspaceFolderNames';
import type { ChatViewProvider } from './chatViewProvider';
import type { OutputLog } from './outputLog';

export interface CommandHost {
  readonly panel: () => Promise<ChatViewProvider>;
  readonly log: OutputLog;
  /** Shows the MCP servers' status (wired by whoever owns MCP). */
  readonly showMcpServers: () => Promise<void>;
  /** Forgets the MCP server trust decisions (`tandem.resetMcpTrust`). */
  readonly resetMcpTrust: () => Promise<void>;
  /** Copies the AG-UI endpoint's URL and token; resolves with the URL. */
  readonly copyAgUiEndpoint: () => Promise<{ url: string } | undefined>;
  /** Attaches the editor's selection or file, or a context menu's file or folders; false when nothing was attached. */
  readonly addContext: (target?: unknown, targets?: unknown) => Promise<boolean>;
  /** Fix with Tandem's message for a code action's file and range, or the active editor's cursor (fixRequest.ts). */
  readonly fixRequest: (uri?: unknown, range?: unknown) => Promise<string | undefined>;
}

/** Sent by the Continue action of an answer cut at the token limit. */
export const CONTINUE_PROMPT = 'Your last answer was cut off at the token limit. Continue it exactly where it stopped, without repeating what you already wrote.';

/** The prompt for Ask About Selection: the file, the lines and the selected text. */
export function selectionPrompt(relativePath: string, firstLine: number, lastLine: number, languageId: string, text: string): string {
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}-${lastLine}`;
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `About ${relativePath}, ${lines}:\n\n${fence}${languageId}\n${text}\n${fence}\n\nExplain this code.`;
}

export function registerCommands(context: vscode.ExtensionContext, host: CommandHost): void {
  const register = (id: string, run: (...args: unknown[]) => Promise<unknown> | unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await run(...args);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          host.log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(`Tandem: ${message}`);
        }
      }),
    );

  register('tandem.newChat', async () => {
    const panel = await host.panel();
    await panel.reveal();
    await panel.newChat();
  });
  register('tandem.stop', async () => (await host.panel()).stop());
  register('tandem.condense', async () => (await host.panel()).condense());
  register('tandem.toggleMode', async () => (await host.panel()).toggleMode());
  register('tandem.toggleResponseMode', async () => (await host.panel()).toggleResponseMode());
  register('tandem.setApiKey', async () => (await host.panel()).setApiKey());
  register('tandem.selectModels', async () => (await host.panel()).selectModels());
  register('tandem.chooseCustomAgent', async () => (await host.panel()).chooseCustomAgent());
  register('tandem.useEndpoint', async () => (await host.panel()).useEndpoint());
  register('tandem.exportTranscript', async () => (await host.panel()).exportTranscript());
  register('tandem.showMcpServers', () => host.showMcpServers());
  register('tandem.resetMcpTrust', async () => {
    await host.resetMcpTrust();
    void vscode.window.showInformationMessage('Tandem: MCP server trust reset; each workspace server asks again before it starts.');
  });
  register('tandem.showLog', () => host.log.show());
  register('tandem.continueAnswer', async () => (await host.panel()).ask(CONTINUE_PROMPT));
  register('tandem.copyAgUiEndpoint', () => host.copyAgUiEndpoint());
  register('tandem.focusPrompt', async () => (await host.panel()).focusPrompt());
  // Context menus pass the item they were opened on (the explorer also passes its whole selection).
  register('tandem.addContext', async (target, targets) => {
    if (await host.addContext(target, targets)) await (await host.panel()).reveal();
  });
  // From a problem's lightbulb (its file and range), or the palette (the active editor's cursor or selection).
  register('tandem.fixWithTandem', async (uri, range) => {
    const prompt = await host.fixRequest(uri, range);
    if (prompt !== undefined) await (await host.panel()).ask(prompt);
  });
  register('tandem.askAboutSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) {
      void vscode.window.showInformationMessage('Tandem: select some code first.');
      return;
    }
    const { selection, document } = editor;
    const prompt = selectionPrompt(
      toolPathOf(document.uri),
      selection.start.line + 1,
      selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1,
      document.languageId,
      document.getText(selection),
    );
    await (await host.panel()).ask(prompt);
  });
}
