// \`tandem.exportTranscript\`: the conversation as Markdown or JSON (the event
// list itself), wherever the user saves it.
import * as vscode from 'vscode';
import { transcriptFileName, transcriptMarkdown } from '../../webview/transcript';
import type { StoredConversation } from './conversationStore';
import type { Log } from './outputLog';

export async function exportTranscript(conversation: StoredConversation, log: Log): Promise<void> {
  if (conversation.events.length === 0) {
    void vscode.window.showInformationMessage('Tandem: the conversation is empty.');
    return;
  }
  const base = transcriptFileName(conversation.title);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Tandem transcript',
    defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.md`) : undefined,
    filters: { Markdown: ['md'], JSON: ['json'] },
  });
  if (!target) return;
  const json = target.path.toLowerCase().endsWith('.json');
  const content = json
    ? JSON.stringify(
        { tandemTranscript: 1, exportedAt: new Date().toISOString(), id: conversation.id, title: conversation.title, createdAt: conversation.createdAt, events: conversation.events },
        null,
        2,
      )
    : transcriptMarkdown(conversation.title, conversation.events, conversation);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  log.info(`transcript exported to ${target.fsPath}`);
  const open = 'Open';
  const shown = vscode.workspace.asRelativePath(target);
  if ((await vscode.window.showInformationMessage(`Tandem: the transcript is saved to ${shown}.`, open)) === open) await vscode.window.showTextDocument(target);
}

