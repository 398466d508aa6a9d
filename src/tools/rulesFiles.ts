// Finds and reads the repository's rules files (`tandem.agent.rulesFiles`):
// workspace-relative paths, where the last segment may hold `*` wildcards
// (`.tandem/rules/*.md`). Read with plain Node fs; capped per file and in total
// so a huge AGENTS.md cannot crowd out the conversation.
import { open, readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { IgnoreRules, TANDEM_IGNORE_FILE } from './ignoreRules';
import { appliesToEverything, isInstructionsFile, parseInstructionsFile } from './scopedInstructions';
import { decodeFileBytes } from './textEncoding';
import { byteSize } from '../common/byteSize';

/** One rules file as read from the workspace. */
export interface RuleFile {
  /** Workspace-relative path, shown to the user and the model. */
  readonly path: string;
  readonly text: string;
  /** Set when `text` holds only the start of the file (the notice says so): characters shown, of how many. */
  readonly cut?: { readonly shown: number; readonly of: number } | undefined;
  /** Set when the file is larger than was read (RULE_FILE_BYTE_LIMIT): its size, said in place of a character count. */
  readonly fileBytes?: number | undefined;
}

export const RULE_FILE_CHAR_LIMIT = 16_000;
export const RULES_TOTAL_CHAR_LIMIT = 48_000;
/**
 * The most of a rules file read: far more than the characters it may give
 * (16,000 at up to 4 bytes each), so no cut is felt; a repository's 600 MB
 * AGENTS.md would otherwise be read whole at every run's start (and past
 * 512 MB could not even be made a string).
 */
export const RULE_FILE_BYTE_LIMIT = 1024 * 1024;

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
        const read = await ruleTextAtStart(absolute, relative);
        const text = read?.text;
        if (text === undefined || !text.trim() || texts.has(text.trim())) continue;
        texts.add(text.trim());
        const room = Math.min(RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT - total);
        total += Math.min(text.length, room);
        rules.push(cappedRule((root.label ? `${root.label}/` : '') + relative.split(path.sep).join('/'), text, room, read?.fileBytes));
      }
    }
  }
  return rules;
}

/**
 * A rules file whose text is cut to `room` characters, saying how much was
 * left out: in characters, or for a file not read whole, its size.
 */
export function cappedRule(shownPath: string, text: string, room: number, fileBytes?: number): RuleFile {
  if (fileBytes !== undefined) {
    const shown = Math.min(room, text.length);
    return { path: shownPath, text: `${text.slice(0, shown)}\n[... the rest of this ${byteSize(fileBytes)} file not shown]`, cut: { shown, of: text.length }, fileBytes };
  }
  if (text.length <= room) return { path: shownPath, text };
  return { path: shownPath, text: `${text.slice(0, room)}\n[... ${text.length - room} more characters not shown]`, cut: { shown: room, of: text.length } };
}

/** A file's text for the start of a run: a scoped instructions file only when it is for every file, without its front matter. */
async function ruleTextAtStart(absolute: string, relative: string): Promise<RuleText | undefined> {
  const read = await readRuleText(absolute);
  if (read === undefined || !isInstructionsFile(relative)) return read;
  const instructions = parseInstructionsFile(read.text);
  return instructions.applyTo !== undefined && appliesToEverything(instructions.applyTo) ? { ...read, text: instructions.body } : undefined;
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

export interface RuleText {
  readonly text: string;
  /** The file's size when only its first RULE_FILE_BYTE_LIMIT bytes were read. */
  readonly fileBytes?: number;
}

/**
 * A rules file's text in its own encoding (a UTF-16 AGENTS.md from
 * PowerShell included), up to RULE_FILE_BYTE_LIMIT bytes; undefined when it
 * cannot be read or is binary.
 */
export async function readRuleText(file: string): Promise<RuleText | undefined> {
  let bytes: Buffer;
  let fileBytes: number;
  try {
    const handle = await open(file, 'r');
    try {
      fileBytes = (await handle.stat()).size;
      const buffer = Buffer.alloc(Math.min(fileBytes, RULE_FILE_BYTE_LIMIT));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const whole = fileBytes <= bytes.length;
  const decoded = decodeFileBytes(whole ? bytes : bytes.subarray(0, characterBoundary(bytes)));
  if (decoded.kind !== 'text') return undefined;
  // The decoder keeps a UTF-8 byte order mark (the edit tools write it back); the models need not read it.
  const text = decoded.text.replace(/^\uFEFF/, '');
  return whole ? { text } : { text, fileBytes };
}

/** Where a cut read ends on a whole character: an even length for UTF-16, else before a UTF-8 sequence the cut split. */
function characterBoundary(bytes: Buffer): number {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) return bytes.length - (bytes.length % 2);
  let start = bytes.length;
  // Back over continuation bytes (10xxxxxx) to the sequence's first byte, at most three.
  while (start > 0 && bytes.length - start < 3 && (bytes[start - 1]! & 0xc0) === 0x80) start -= 1;
  if (start === 0) return bytes.length;
  const lead = bytes[start - 1]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start - 1 + length > bytes.length ? start - 1 : bytes.length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
