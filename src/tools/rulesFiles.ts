// Finds and reads the repository's rules files (`tandem.agent.rulesFiles`):
// workspace-relative paths, where the last segment may hold `*` wildcards
// (`.tandem/rules/*.md`). Read with plain Node fs; capped per file and in total
// so a huge AGENTS.md cannot crowd out the conversation.
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';

/** One rules file as read from the workspace. */
export interface RuleFile {
  /** Workspace-relative path, shown to the user and the model. */
  readonly path: string;
  readonly text: string;
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
  let total = 0;
  for (const root of roots) {
    for (const pattern of patterns) {
      for (const relative of await expand(root.folder, pattern)) {
        const absolute = path.join(root.folder, relative);
        if (seen.has(absolute) || total >= RULES_TOTAL_CHAR_LIMIT) continue;
        seen.add(absolute);
        const text = await readText(absolute);
        if (text === undefined || !text.trim()) continue;
        const room = Math.min(RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT - total);
        const capped = capRuleText(text, room);
        total += Math.min(text.length, room);
        rules.push({ path: (root.label ? `${root.label}/` : '') + relative.split(path.sep).join('/'), text: capped });
      }
    }
  }
  return rules;
}

/** A rules file's text cut to `room` characters, saying how much was left out. */
export function capRuleText(text: string, room: number): string {
  return text.length > room ? `${text.slice(0, room)}\n[... ${text.length - room} more characters not shown]` : text;
}

/** A rules file's text, capped at the per-file limit; undefined when it cannot be read. */
export async function readRuleText(file: string): Promise<string | undefined> {
  const text = await readText(file);
  return text === undefined ? undefined : capRuleText(text, RULE_FILE_CHAR_LIMIT);
}

/** Workspace-relative matches of one pattern, sorted; a pattern leaving the folder matches nothing. */
async function expand(folder: string, pattern: string): Promise<string[]> {
  const normalized = path.normalize(pattern.trim()).replace(/^[/\\]+/, '');
  if (!normalized || normalized.startsWith('..') || path.isAbsolute(normalized)) return [];
  const directory = path.dirname(normalized);
  const name = path.basename(normalized);
  if (!name.includes('*')) return (await isFile(path.join(folder, normalized))) ? [normalized] : [];
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
    if (matcher.test(entry) && (await isFile(path.join(folder, relative)))) matches.push(relative);
  }
  return matches;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
