// find_usages: where a symbol is defined and every place that uses it, from
// VS Code's language services (the same answers as Go to Definition and Find
// All References), so a rename or a change of signature meets every caller,
// and not the comments and look-alike names a text search also finds. With a
// file, the symbol is the one named there; without, the workspace symbol
// search finds it by name. Read-only. Files outside the workspace or excluded
// by the ignore files are left out. VS Code only (a host's CodeNavigation).
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { escapeRegExp } from '../common/escapeRegExp';
import type { CodeLocation, CodeNavigation, SymbolDefinition } from './codeNavigation';
import { isInside, type ScopedFolder } from './pathScope';
import { searchWorkspaceText } from './searchTextTool';
import { shownPaths } from './shownInScope';
import type { Tool, ToolResult } from './tool';
import { askToReadIgnored, readFileText } from './workspaceFiles';
import { defineWorkspaceTool, requireFolders, requireScopedPath, WorkspaceToolFault } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';

export const FIND_USAGES_TOOL = 'find_usages';
export const USAGES_DEFAULT_LIMIT = 50;
/** Definitions followed at most (an overloaded or common name has many). */
const MAX_DEFINITIONS = 5;
/** Places a name is used that are asked for its definition, when the symbol search knows none. */
const USES_TRIED = 5;
/** Characters of a line shown beside each place. */
const LINE_CHARS = 160;

export interface FindUsagesDeps {
  readonly host: WorkspaceHost;
  readonly navigation: CodeNavigation;
}

export function createFindUsagesTool(deps: FindUsagesDeps): Tool {
  return defineWorkspaceTool({
    name: FIND_USAGES_TOOL,
    description:
      "Find where a symbol (function, class, method, variable, type) is defined and every place that uses it, from VS Code's language services (Go to Definition, Find All References). " +
      'More precise than search_text for code: it follows imports and skips comments and other things of the same name. Use it before renaming or changing a signature. ' +
      'Give the file where the symbol is defined or used to pick the right one among several of that name.',
    readOnly: true,
    input: z.object({
      symbol: z.string().trim().min(1).max(200).describe('The name as written in the code, e.g. parseConfig or User.save (the part after the last dot is looked for).'),
      path: z.string().optional().describe('A file, relative to the workspace folder, where the symbol is defined or used.'),
      maxResults: z.number().int().min(1).max(200).default(USAGES_DEFAULT_LIMIT).describe('At most this many places are listed.'),
    }),
    run: async (args, context) => {
      const name = args.symbol.split('.').at(-1)!.replace(/\(\)$/, '');
      const folders = await requireFolders(deps.host);
      let definitions: readonly CodeLocation[];
      let anchors: readonly CodeLocation[];
      if (args.path !== undefined && args.path.trim() !== '') {
        const { target } = await requireScopedPath(deps.host, args.path);
        const ignored = await askToReadIgnored(target, false, context, { toolName: FIND_USAGES_TOOL, arguments: args });
        if (ignored.declined) return ignored.declined;
        const occurrence = firstOccurrence((await readFileText(deps.host, target)).text, name);
        if (occurrence === undefined) throw new WorkspaceToolFault(`${target.display} does not contain "${name}" as a whole word.`);
        const at = { path: target.absolute, ...occurrence };
        definitions = await deps.navigation.definitionsAt(at, context.signal);
        anchors = definitions.length > 0 ? definitions.slice(0, MAX_DEFINITIONS) : [at];
      } else {
        definitions = (await deps.navigation.definitions(name, context.signal)).slice(0, MAX_DEFINITIONS);
        // No symbol by that name (a language service searches only the projects it has loaded): from where the name is used.
        if (definitions.length === 0) definitions = await definitionsFromUses(deps, name, context.signal);
        anchors = definitions;
      }
      const references: CodeLocation[] = [];
      for (const anchor of anchors) references.push(...(await deps.navigation.references(anchor, context.signal)));
      return usagesResult(name, definitions, references, folders, args.maxResults, deps.navigation);
    },
  });
}

/** Places the name is used (a text search, code lines first) asked for its definition in turn, until one answers. */
async function definitionsFromUses(deps: FindUsagesDeps, name: string, signal: AbortSignal): Promise<readonly CodeLocation[]> {
  const pattern = `\\b${escapeRegExp(name)}\\b`;
  const { hits } = await searchWorkspaceText(deps.host, { pattern, isRegexp: true, caseSensitive: true, include: [], exclude: [], maxHits: 50 }, signal);
  const places = hits.flatMap((hit) => {
    const column = firstOccurrence(hit.text, name)?.column;
    return column === undefined ? [] : [{ hit, column, comment: isComment(hit.text) }];
  });
  const tried = [...places.filter((place) => !place.comment), ...places.filter((place) => place.comment)].slice(0, USES_TRIED);
  for (const { hit, column } of tried) {
    const { target } = await requireScopedPath(deps.host, hit.path);
    const found = await deps.navigation.definitionsAt({ path: target.absolute, line: hit.line, column }, signal);
    if (found.length > 0) return found.slice(0, MAX_DEFINITIONS);
  }
  throw new WorkspaceToolFault(
    tried.length === 0
      ? `"${name}" appears nowhere in the workspace's files as a whole word.`
      : `VS Code's language services know no definition of "${name}" at the places it appears (${tried.map(({ hit }) => `${hit.path}:${hit.line}`).join(', ')}): ` +
          'no extension serves that language, or it is still loading the project. search_text finds the text.',
  );
}

/** A line that is a comment in most languages. */
function isComment(line: string): boolean {
  return /^\s*(\/\/|#|\*|\/\*|--)/.test(line);
}

/** Where `name` first stands as a whole word in `text` (1-based), after any leading comment lines. */
export function firstOccurrence(text: string, name: string): { line: number; column: number } | undefined {
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$])`, 'u');
  const lines = text.split('\n');
  let fallback: { line: number; column: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const match = word.exec(line);
    if (!match) continue;
    const found = { line: index + 1, column: match.index + 1 };
    // A comment naming it is no use to a language service: a line of code is preferred.
    if (!isComment(line)) return found;
    fallback ??= found;
  }
  return fallback;
}

async function usagesResult(
  name: string,
  definitions: readonly CodeLocation[],
  references: readonly CodeLocation[],
  folders: readonly ScopedFolder[],
  limit: number,
  navigation: CodeNavigation,
): Promise<ToolResult> {
  const shown = await shownPaths([...definitions, ...references].map((place) => place.path), folders);
  const key = (place: CodeLocation) => `${place.path}\n${place.line}\n${place.column}`;
  const isDefinition = new Set(definitions.map(key));
  const seen = new Set<string>();
  const uses: CodeLocation[] = [];
  for (const place of [...references].sort(byPlace)) {
    if (!shown.has(place.path) || seen.has(key(place)) || isDefinition.has(key(place))) continue;
    seen.add(key(place));
    uses.push(place);
  }
  const defined = definitions.filter((place) => shown.has(place.path));
  const fileCount = new Set(uses.map((place) => place.path)).size;
  const head =
    `"${name}": ${count(defined.length, 'definition')} in the workspace, ${count(uses.length, 'use')}` +
    `${uses.length > 0 ? ` in ${count(fileCount, 'file')}` : ''} (VS Code's language services).`;
  // Each file is read once for all its places.
  const files = new Map<string, Promise<readonly string[] | undefined>>();
  const lineText = async (place: CodeLocation): Promise<string> => {
    let lines = files.get(place.path);
    if (lines === undefined) files.set(place.path, (lines = navigation.fileLines(place.path)));
    return (await lines)?.[place.line - 1]?.trim() ?? '';
  };
  const line = async (place: CodeLocation) => {
    const text = await lineText(place);
    const cut = text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text;
    return `- ${shown.get(place.path)}:${place.line}:${place.column}${cut ? `: ${cut}` : ''}`;
  };
  const parts = [head];
  if (defined.length > 0) parts.push(`Defined at:\n${(await Promise.all(defined.map(async (place) => `${await line(place)}${describeSymbol(place)}`))).join('\n')}`);
  const listed = uses.slice(0, limit);
  if (listed.length > 0) {
    const more = uses.length > listed.length ? `\n(${uses.length - listed.length} more; raise maxResults to see them)` : '';
    parts.push(`Used at:\n${(await Promise.all(listed.map(line))).join('\n')}${more}`);
  }
  const loose = await outsideAnyProject(defined.map((place) => place.path), folders);
  if (loose.length > 0) {
    parts.push(
      `Note: no tsconfig.json or jsconfig.json covers ${loose.map((file) => shown.get(file)).join(', ')}, so TypeScript knows only the files open in editors: ` +
        'uses in other files may be missing. search_text finds the text.',
    );
  }
  const top = await Promise.all(
    listed.slice(0, 3).map(async (place) => ({ title: `${shown.get(place.path)}:${place.line}`, snippet: (await lineText(place)).slice(0, LINE_CHARS) })),
  );
  return { text: parts.join('\n\n'), summary: { kind: 'search', total: uses.length, top } };
}

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;
const PROJECT_FILES = ['tsconfig.json', 'jsconfig.json'];

/**
 * The TypeScript and JavaScript files among these with no tsconfig.json or
 * jsconfig.json in their folder or one above it, up to their workspace folder:
 * TypeScript then finds references only in the files open in editors.
 */
async function outsideAnyProject(files: readonly string[], folders: readonly ScopedFolder[]): Promise<string[]> {
  const loose: string[] = [];
  for (const file of new Set(files)) {
    if (!SCRIPT.test(file)) continue;
    const root = folders.find((folder) => isInside(folder.given, file) || isInside(folder.real, file));
    if (root === undefined) continue;
    const top = isInside(root.given, file) ? root.given : root.real;
    let folder = path.dirname(file);
    let found = false;
    for (;;) {
      if (await anyExists(PROJECT_FILES.map((name) => path.join(folder, name)))) {
        found = true;
        break;
      }
      if (folder === top || !isInside(top, folder)) break;
      folder = path.dirname(folder);
    }
    if (!found) loose.push(file);
  }
  return loose;
}

async function anyExists(files: readonly string[]): Promise<boolean> {
  const found = await Promise.all(files.map((file) => stat(file).then((info) => info.isFile(), () => false)));
  return found.includes(true);
}

function describeSymbol(place: CodeLocation): string {
  const symbol = place as Partial<SymbolDefinition>;
  if (symbol.kind === undefined) return '';
  return ` (${symbol.kind}${symbol.container ? ` in ${symbol.container}` : ''})`;
}

function byPlace(a: CodeLocation, b: CodeLocation): number {
  return a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
