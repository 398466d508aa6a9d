// An answer's code block, put into the editor when the user clicks Insert: at
// the cursor of the editor they last worked in, replacing its selections, as
// one edit Undo takes back; with no editor open, in a new untitled one. Never
// saved: the file on disk changes only when the user saves it.
import * as vscode from 'vscode';

/** Fence names that are not VS Code's language ids. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  md: 'markdown',
  yml: 'yaml',
  rs: 'rust',
  rb: 'ruby',
  cs: 'csharp',
  'c++': 'cpp',
  kt: 'kotlin',
  golang: 'go',
};

export async function insertCodeAtCursor(text: string, fence: string | undefined): Promise<void> {
  const editor = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].find(
    (candidate) => candidate !== undefined && candidate.document.uri.scheme !== 'output',
  );
  if (editor) {
    // As a snippet, the lines after the first take the indentation of the line it lands on; appendText escapes `$`.
    const inserted = await editor.insertSnippet(new vscode.SnippetString().appendText(text), editor.selections).then(
      (done) => done,
      () => false,
    );
    if (inserted) {
      await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
      return;
    }
    void vscode.window.showWarningMessage('Tandem: that editor takes no edits (it is read-only), so the code went to a new one.');
  }
  const document = await vscode.workspace.openTextDocument({ content: text, language: await languageId(fence) });
  await vscode.window.showTextDocument(document);
}

/** The fence's language as VS Code names it, when VS Code knows it. */
async function languageId(fence: string | undefined): Promise<string | undefined> {
  if (!fence) return undefined;
  const name = fence.toLowerCase();
  const id = LANGUAGE_ALIASES[name] ?? name;
  return (await vscode.languages.getLanguages()).includes(id) ? id : undefined;
}
