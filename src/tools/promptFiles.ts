// A repository's prompt files, offered in the prompt box as slash commands:
// Copilot's `.github/prompts/*.prompt.md`, Claude Code's `.claude/commands/*.md`
// and Tandem's own `.tandem/prompts/*.md`. `/<name>` sends the file's text as
// the user's message, with `$ARGUMENTS` replaced by the words after the
// command and each `${input:name}` (Copilot's form; `${input:name:hint}` too)
// by its `name=value` word or, missing, what the user types when asked;
// Copilot's editor variables (`${file}`, `${selection}`, `${workspaceFolder}`
// and their kin) by what the editor shows when the command is sent. Its front
// matter's `description` shows in the list, and its `mode: ask` (Copilot's;
// `agent:` too) sends that message in Chat mode, `agent` or `edit` in Agent
// mode, whatever the panel's toggle says; its `tools:` narrows the tools that
// message may use (promptFileTools.ts). It is
// repository text the user chose to send: it asks the model as a message the
// user typed would (shown as theirs), and can open no approval.
import * as path from 'node:path';
import { frontMatterList, frontMatterScalar, splitFrontMatter } from './frontMatter';
import { parseSlashArguments } from '../common/slashArguments';
import { baseNameWithout, loadNamedFiles } from './namedRepositoryFiles';

/** Where prompt files are looked for in each workspace folder, in this order (the first file of a name wins). */
export const PROMPT_FILE_PATTERNS = ['.tandem/prompts/*.md', '.github/prompts/*.prompt.md', '.claude/commands/*.md'] as const;

export interface PromptFile {
  /** What follows `/` in the prompt box: the file's name without `.prompt.md` or `.md`. */
  readonly command: string;
  /** The workspace-relative path, with the folder's name in a multi-root workspace. */
  readonly file: string;
  /** `description` of its front matter, if any. */
  readonly description: string | undefined;
  /** The `${input:…}` names, in order of first use. */
  readonly inputs: readonly string[];
  /** Whether the text takes the words after the command as `$ARGUMENTS`. */
  readonly takesArguments: boolean;
  /** The text without its front matter. */
  readonly body: string;
  /** The mode its front matter asks this message to run in (`mode: ask` is Chat); undefined: the panel's. */
  readonly mode?: 'agent' | 'chat' | undefined;
  /** The tools its front matter names (`tools:`, Copilot's names or Tandem's; promptFileTools.ts); undefined: every tool. */
  readonly tools?: readonly string[] | undefined;
}

const INPUT = /\$\{input:([\w-]+)(?::([^}]*))?\}/g;
/** Everything a prompt file's text can ask to be filled, in one pattern so it is filled in one pass. */
const PLACEHOLDER = /\$ARGUMENTS|\$\{input:([\w-]+)(?::[^}]*)?\}|\$\{(workspaceFolder|workspaceFolderBasename|file|fileBasename|fileDirname|fileBasenameNoExtension|selection|selectedText)\}/g;

/**
 * The mode a file asks to run in: Copilot's `mode:` (or, since it was renamed,
 * `agent:`) of `ask` is Chat mode, `agent` and `edit` Agent mode; anything
 * else (a custom agent's name) leaves the panel's mode.
 */
function modeOf(frontMatter: string): PromptFile['mode'] {
  const value = (frontMatterScalar(frontMatter, 'mode') ?? frontMatterScalar(frontMatter, 'agent'))?.toLowerCase();
  if (value === 'ask') return 'chat';
  return value === 'agent' || value === 'edit' ? 'agent' : undefined;
}

export function parsePromptFile(command: string, file: string, source: string): PromptFile {
  const { frontMatter = '', body: rest } = splitFrontMatter(source);
  const body = rest.trim();
  const inputs = [...new Set([...body.matchAll(INPUT)].map((each) => each[1]!))];
  const mode = modeOf(frontMatter);
  // Copilot's `tools:`, a list of names.
  const tools = frontMatterList(frontMatter, 'tools');
  return { command, file, description: frontMatterScalar(frontMatter, 'description'), inputs, takesArguments: body.includes('$ARGUMENTS'), body, ...(mode && { mode }), ...(tools && { tools }) };
}

/** The prompt files of these folders; a name already taken (by an earlier place or folder) is skipped. */
export async function loadPromptFiles(folders: readonly { readonly path: string; readonly name?: string | undefined }[]): Promise<PromptFile[]> {
  const files = await loadNamedFiles(folders, PROMPT_FILE_PATTERNS, (relative) => baseNameWithout(relative, ['.prompt.md', '.md']));
  return files.map(({ name, file, text }) => parsePromptFile(name, file, text));
}

/** `/name rest` when `name` is one of these files: the file and the words after it. */
export function promptFileCommand(files: readonly PromptFile[], text: string): { file: PromptFile; rest: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const file = match && files.find((each) => each.command === match[1]);
  return file ? { file, rest: (match[2] ?? '').trim() } : undefined;
}

/** What the editor shows when a command is sent; absent: nothing there (no editor, no selection). */
export interface EditorVariables {
  /** The workspace folder of the active file (or the first folder): its absolute path. */
  readonly workspaceFolder?: string | undefined;
  /** The active editor's file as Tandem's tools name it: workspace-relative with `/`, or absolute outside the workspace. */
  readonly file?: string | undefined;
  /** The active editor's selected text. */
  readonly selection?: string | undefined;
}

/** Copilot's editor variables; one with nothing behind it becomes empty text. */
function editorVariable(name: string, editor: EditorVariables): string {
  const file = editor.file;
  switch (name) {
    case 'workspaceFolder':
      return editor.workspaceFolder ?? '';
    case 'workspaceFolderBasename':
      return editor.workspaceFolder ? path.basename(editor.workspaceFolder) : '';
    case 'file':
      return file ?? '';
    case 'fileBasename':
      return file ? path.posix.basename(file) : '';
    case 'fileDirname':
      return file ? path.posix.dirname(file) : '';
    case 'fileBasenameNoExtension':
      return file ? path.posix.basename(file, path.posix.extname(file)) : '';
    default:
      return editor.selection ?? '';
  }
}

/**
 * The message the file becomes; null when the user cancelled a question.
 * `ask(name, hint)` is asked for each input the words after the command do not give.
 */
export async function expandPromptFile(file: PromptFile, rest: string, ask: (name: string, hint: string | undefined) => Promise<string | undefined>, editor: EditorVariables = {}): Promise<string | null> {
  const given = parseSlashArguments(rest);
  const values = new Map<string, string>();
  for (const name of file.inputs) {
    const inline = given.get(name);
    if (inline !== undefined) {
      values.set(name, inline);
      continue;
    }
    const hint = [...file.body.matchAll(INPUT)].find((each) => each[1] === name)?.[2]?.trim() || undefined;
    const typed = await ask(name, hint);
    if (typed === undefined) return null;
    values.set(name, typed);
  }
  // One pass over the text, so a value that holds `$ARGUMENTS` or `${input:…}` is left as typed.
  const text = file.body.replace(PLACEHOLDER, (whole, input: string | undefined, variable: string | undefined) => {
    if (input !== undefined) return values.get(input) ?? whole;
    return variable !== undefined ? editorVariable(variable, editor) : rest;
  });
  // Words after a command whose text has no place for them are kept, after it.
  return file.takesArguments || file.inputs.length > 0 || rest === '' ? text : `${text}\n\n${rest}`;
}
