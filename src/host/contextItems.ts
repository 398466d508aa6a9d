// The kinds of item the user can attach to a message, as context chips. No
// 'vscode' here (the editor facts come in as plain values), so the message
// each one contributes is tested in plain Node.
import * as path from 'node:path';
import { capHeadTail, contextBlock, fileContextBlock, resolveContextPath } from '../tools/contextContent';
import { filteredDiff, type RepositoryDiff } from '../tools/diffContent';
import type { WorkspaceHost } from '../tools/workspaceHost';
import type { ContextAttachment } from './contextAttachments';
import { parseUrl, readWebPage } from '../tools/fetchUrlTool';

/** Open editors contribute at most this many files, each capped at this many characters. */
export const OPEN_EDITORS_MAX_FILES = 10;
const OPEN_EDITOR_MAX_CHARS = 6_000;
/** The problems listing stops after this many entries. */
export const PROBLEMS_MAX_ENTRIES = 200;

/**
 * A workspace file or folder the user chose. Checked now against the tools'
 * path scope and .tandemignore, so a refused path shows as an error chip; read
 * when sent. A .gitignore'd path is the user's to attach (contextContent.ts).
 */
export async function pathAttachment(host: WorkspaceHost, input: string): Promise<ContextAttachment> {
  try {
    const { target, isDirectory, gitIgnored } = await resolveContextPath(host, input, 'chosen');
    const display = target.display;
    return {
      path: display,
      label: isDirectory ? `${path.posix.basename(display) || display}/` : path.posix.basename(display) || display,
      title: [display, isDirectory ? '(its list of files and folders, not their contents)' : '', gitIgnored ? '(excluded by .gitignore; sent because you attached it)' : ''].filter(Boolean).join(' '),
      name: `Attached ${isDirectory ? 'folder' : 'file'} ${display}`,
      read: () => fileContextBlock(host, display, 'chosen'),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { path: input, label: path.posix.basename(input) || input, title: message, error: message, name: `Attached path ${input}`, read: async () => '' };
  }
}

/**
 * An editor never saved (an `untitled:` tab, e.g. "Untitled-1"): there is no
 * file for the tools to read, so, like a refused path, an error chip that
 * says why and how to attach it. `uri` keeps two such editors apart.
 */
export function unsavedEditorAttachment(uri: string, name: string): ContextAttachment {
  const error = `Unsaved editor "${name}": it is not a file yet. Save it to attach it, or select its text and use Add to Tandem Context.`;
  return { path: uri, label: name, title: error, error, name: `Attached editor ${name}`, read: async () => '' };
}

export interface EditorSelection {
  /** Workspace-relative path (or the document's name when it is not in the workspace). */
  readonly file: string;
  readonly firstLine: number;
  readonly lastLine: number;
  readonly languageId: string;
  /** The selected text when it was attached: what the user saw is what is sent. */
  readonly text: string;
}

export function selectionAttachment(selection: EditorSelection): ContextAttachment {
  const lines = selection.firstLine === selection.lastLine ? `${selection.firstLine}` : `${selection.firstLine}-${selection.lastLine}`;
  return {
    path: `selection:${selection.file}:${lines}`,
    label: `${path.posix.basename(selection.file)}:${lines}`,
    title: `Selection in ${selection.file}, line${selection.firstLine === selection.lastLine ? '' : 's'} ${lines}`,
    name: `Attached selection ${selection.file}:${lines}`,
    read: async () => contextBlock(`Attached selection from ${selection.file}, line${selection.firstLine === selection.lastLine ? '' : 's'} ${lines}`, selection.text, selection.languageId),
  };
}

export interface Problem {
  /** Workspace-relative path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string | undefined;
}

/** The workspace's diagnostics as the Problems view lists them, errors first, capped. */
export function formatProblems(problems: readonly Problem[]): string {
  if (problems.length === 0) return 'No problems are reported in the workspace.';
  const order = { error: 0, warning: 1, info: 2, hint: 3 } as const;
  const sorted = [...problems].sort((a, b) => order[a.severity] - order[b.severity] || a.file.localeCompare(b.file) || a.line - b.line);
  const lines = sorted
    .slice(0, PROBLEMS_MAX_ENTRIES)
    .map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.severity}: ${problem.message.replace(/\s*\n\s*/gu, ' ')}${problem.source ? ` (${problem.source})` : ''}`);
  if (sorted.length > PROBLEMS_MAX_ENTRIES) lines.push(`[… ${sorted.length - PROBLEMS_MAX_ENTRIES} more problems left out]`);
  return lines.join('\n');
}

/** The Problems view's content, read when the message is sent. */
export function problemsAttachment(problems: () => readonly Problem[]): ContextAttachment {
  return {
    path: 'problems',
    label: 'Problems',
    title: "The workspace's errors and warnings, as they are when the message is sent",
    name: 'Attached problems',
    read: async () => contextBlock('Attached problems (the diagnostics VS Code reports for the workspace)', formatProblems(problems())),
  };
}

/** A terminal's last command, as shell integration saw it (terminalHistory.ts). */
export interface TerminalCommand {
  /** The terminal's name, as its tab shows it. */
  readonly terminal: string;
  readonly commandLine: string;
  readonly cwd: string | undefined;
  /** What it printed, escape sequences removed, head and tail kept. */
  readonly output: string;
  readonly exitCode: number | undefined;
  readonly running: boolean;
}

/**
 * A terminal command chosen when attached (the chip names it), with what it
 * printed read when the message is sent; undefined when no command was seen.
 */
export function terminalAttachment(chosen: { readonly commandLine: string; read(): TerminalCommand } | undefined): ContextAttachment {
  const shown = chosen === undefined ? undefined : chosen.commandLine.length > 40 ? `${chosen.commandLine.slice(0, 39)}…` : chosen.commandLine;
  return {
    path: 'terminal',
    label: shown === undefined ? 'Terminal' : `$ ${shown}`,
    title: shown === undefined ? 'No terminal command to attach yet' : `The terminal command \`${chosen!.commandLine}\` and what it printed, as it is when the message is sent`,
    name: 'Attached terminal output',
    read: async () => {
      const command = chosen?.read();
      if (!command) {
        return 'Attached terminal output: none. No command has run in a terminal with shell integration (bash, zsh, fish, PowerShell) since Tandem started; VS Code reads what a terminal prints only through it.';
      }
      const status = command.running ? 'still running' : command.exitCode === undefined ? 'ended, exit code unknown' : `exit code ${command.exitCode}`;
      const where = command.cwd ? ` in ${command.cwd}` : '';
      return contextBlock(`Attached terminal output: \`${command.commandLine}\`${where}, in the "${command.terminal}" terminal (${status})`, command.output.trimEnd() || '(no output)');
    },
  };
}

/** The files open in editors, each read under the tools' rules and capped; read when the message is sent. */
export function openEditorsAttachment(host: WorkspaceHost, openFiles: () => readonly string[]): ContextAttachment {
  return {
    path: 'open-editors',
    label: 'Open editors',
    title: 'The files open in editors, as they are when the message is sent',
    name: 'Attached open editors',
    read: async () => {
      const files = openFiles();
      if (files.length === 0) return 'Attached open editors: no file is open in an editor.';
      const shown = files.slice(0, OPEN_EDITORS_MAX_FILES);
      const blocks = await Promise.all(
        shown.map(async (file) => {
          try {
            return capBlock(await fileContextBlock(host, file));
          } catch (error) {
            return `Open editor ${file} could not be read: ${error instanceof Error ? error.message : String(error)}`;
          }
        }),
      );
      const more = files.length > shown.length ? `\n\n[… ${files.length - shown.length} more open editors left out]` : '';
      return `Attached open editors (${files.length}):\n\n${blocks.join('\n\n')}${more}`;
    },
  };
}

/**
 * The uncommitted changes of the workspace's Git repositories (staged and
 * not), read when the message is sent; each file under the tools' rules.
 * `repositories` throws with a reason when Git cannot be asked.
 */
export function gitChangesAttachment(host: WorkspaceHost, repositories: () => Promise<readonly RepositoryDiff[]>): ContextAttachment {
  return {
    path: 'git-changes',
    label: 'Git changes',
    title: "The workspace's uncommitted changes (git diff, staged and not), as they are when the message is sent",
    name: 'Attached Git changes',
    read: async () => {
      let found: readonly RepositoryDiff[];
      try {
        found = await repositories();
      } catch (error) {
        return `Attached Git changes: none could be read (${error instanceof Error ? error.message : String(error)}).`;
      }
      const diff = await filteredDiff(host, found);
      if (diff === '') return `Attached Git changes: ${found.length === 0 ? 'no Git repository is open in the workspace' : 'there are no uncommitted changes'}.`;
      return contextBlock('Attached Git changes (uncommitted: the diff, then new files Git does not track yet)', diff, 'diff');
    },
  };
}

/** Open editors share one budget: each file gets a smaller cap than a file attached on its own. */
function capBlock(block: string): string {
  return capHeadTail(block, OPEN_EDITOR_MAX_CHARS);
}

/**
 * A web page the user typed after `@` (`@https://…`): fetched when the message
 * is sent, as fetch_url reads it (a page as Markdown, 20,000 characters at
 * most). The user's pick is the consent: no card asks. `fetchImpl` replaces
 * the network in tests.
 */
export function urlAttachment(text: string, fetchImpl?: typeof fetch): ContextAttachment {
  let url: URL;
  try {
    url = parseUrl(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { path: text, label: text, title: why, error: why, name: `Attached web page ${text}`, read: async () => '' };
  }
  const shown = url.href.length > 60 ? `${url.href.slice(0, 59)}…` : url.href;
  return {
    path: url.href,
    label: shown,
    title: `${url.href}: fetched when the message is sent`,
    name: `Attached web page ${url.href}`,
    read: async (signal) => {
      const page = await readWebPage(url, signal, 0, undefined, fetchImpl);
      return contextBlock(`Attached web page ${url.href}`, page.text, 'markdown');
    },
  };
}
