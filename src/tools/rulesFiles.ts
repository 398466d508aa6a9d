// Finds and reads the repository's rules files (`tandem.agent.rulesFiles`):
// workspace-relative paths, where the last segment may hold `*` wildcards
// (`.tandem/rules/*.md`). Read with plain Node fs; capped per file and in total
// so a huge AGENTS.md cannot crowd out the conversation.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { IgnoreRules, TANDEM_IGNORE_FILE } from './ignoreRules';
import { appliesToEverything, isInstructionsFile, parseInstructionsFile } from './scopedInstructions';
import { decodeFileBytes } from './textEncoding';

/** One rules file as read from the workspace. */
export interface RuleFile {
  /** Workspace-relative path, shown to the user and the model. */
  readonly path: string;
  readonly text: string;
  /** Set when `text` holds only the start of the file (the notice says so): characters shown, of how many. */
  readonly cut?: { readonly shown: number; readonly of: number } | undefined;
}

export const RULE_FILE_CHAR_LIMIT = 16_000;
export const RULES_TOTAL_CHAR_LIMIT = 48_000;

export interface RulesRoot {
  readonly folder: string;
  /** Prefix for the shown path (the folder's name in a multi-root workspace, else ''). */
  readonly label: string;
}

export async function loadRulesFiles(roots: readonly RulesRoot[], patterns: readonly string[]): Promise<RuleFile[]> {
  const rules: RuleFile[] = [];
  const seen = new Set<string>();
  // CLAUDE.md is often AGENTS.md again (a copy or a link): the models read it once.
  const texts = new Set<string>();
  let total = 0;
  for (const root of roots) {
    for (const pattern of patterns) {
      for (const relative of await expandRulePattern(root.folder, pattern)) {
        const absolute = path.join(root.folder, relative);
        if (seen.has(absolute) || total >= RULES_TOTAL_CHAR_LIMIT) continue;
        seen.add(absolute);
        const text = await ruleTextAtStart(absolute, relative);
        if (text === undefined || !text.trim() || texts.has(text.trim())) continue;
        texts.add(text.trim());
        const room = Math.min(RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT - total);
        total += Math.min(text.length, room);
        rules.push(cappedRule((root.label ? `${root.label}/` : '') + relative.split(path.sep).join('/'), text, room));
      }
    }
  }
  return rules;
}

/** A rules file whose text is cut to `room` characters, saying how much was left out. */
export function cappedRule(shownPath: string, text: string, room: number): RuleFile {
  if (text.length <= room) return { path: shownPath, text };
  return { path: shownPath, text: `${text.slice(0, room)}\n[... ${text.length - room} more characters not shown]`, cut: { shown: room, of: text.length } };
}

/** A file's text for the start of a run: a scoped instructions file only when it is for every file, without its front matter. */
async function ruleTextAtStart(absolute: string, relative: string): Promise<string | undefined> {
  const text = await readRuleText(absolute);
  if (text === undefined || !isInstructionsFile(relative)) return text;
  const instructions = parseInstructionsFile(text);
  return instructions.applyTo !== undefined && appliesToEverything(instructions.applyTo) ? instructions.body : undefined;
}

/**
 * Workspace-relative matches of one pattern, sorted; a pattern leaving the
 * folder matches nothing. A match must be a file inside the folder once links
 * are followed (a committed `AGENTS.md -> ~/.ssh/id_ed25519` is not read) and
 * not kept out by .tandemignore.
 */
export async function expandRulePattern(folder: string, pattern: string): Promise<string[]> {
  const normalized = path.normalize(pattern.trim()).replace(/^[/\\]+/, '');
  if (!normalized || normalized.startsWith('..') || path.isAbsolute(normalized)) return [];
  const directory = path.dirname(normalized);
  const name = path.basename(normalized);
  const folderReal = await realpath(folder).catch(() => undefined);
  if (folderReal === undefined) return [];
  const ignored = new IgnoreRules(folderReal);
  const readable = (relative: string) => isRuleFile(folderReal, path.join(folder, relative), relative, ignored);
  if (!name.includes('*')) return (await readable(normalized)) ? [normalized] : [];
  if (directory.includes('*')) return [];
  const matcher = new RegExp(`^${name.split('*').map(escapeRegExp).join('[^/\\\\]*')}$`);
  let entries: string[];
  try {
    entries = await readdir(path.join(folder, directory));
  } catch {
    return [];
  }
  const matches: string[] = [];
  for (const entry of entries.sort()) {
    const relative = path.join(directory, entry);
    if (matcher.test(entry) && (await readable(relative))) matches.push(relative);
  }
  return matches;
}

async function isRuleFile(folderReal: string, file: string, relative: string, ignored: IgnoreRules): Promise<boolean> {
  let inside: string;
  try {
    if (!(await stat(file)).isFile()) return false;
    inside = path.relative(folderReal, await realpath(file));
  } catch {
    return false;
  }
  if (inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return false;
  // .gitignore'd rules are the user's own (CLAUDE.local.md); .tandemignore is their "keep the agent out", by either path.
  for (const each of new Set([relative, inside])) {
    if ((await ignored.ignoredBy(each.split(path.sep).join('/'), false)) === TANDEM_IGNORE_FILE) return false;
  }
  return true;
}

/** A rules file's whole text in its own encoding (a UTF-16 AGENTS.md from PowerShell included); undefined when it cannot be read or is binary. */
export async function readRuleText(file: string): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  const decoded = decodeFileBytes(bytes);
  // The decoder keeps a UTF-8 byte order mark (the edit tools write it back); the models need not read it.
  return decoded.kind === 'text' ? decoded.text.replace(/^\uFEFF/, '') : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
