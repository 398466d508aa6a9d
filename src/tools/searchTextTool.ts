import { z } from 'zod';
import { fittedListing } from '../agent/resultCap';
import { GlobListError, globList as readGlobList } from './globList';
import { javascriptSearch } from './javascriptSearch';
import { quotedInput } from './quotedInput';
import { ripgrepSearch } from './ripgrepSearch';
import { busiestPlaces, InvalidPatternError, queryInFolder, type FolderSearchTarget, type TextSearchHit, type TextSearchOutcome, type TextSearchQuery } from './textSearchQuery';
import type { WorkspaceHost } from './workspaceHost';
import type { Tool, ToolResult } from './tool';
import { defineWorkspaceTool, requireFolders, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';

export const SEARCH_DEFAULT_RESULTS = 50;
/** Globs named in the reply to a search its filters emptied. */
const NAMED_GLOBS = 12;
/** Places named in the breakdown of a capped search. */
const BREAKDOWN_PLACES = 4;

const globList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe(
    "gitignore-style glob(s), e.g. '*.ts', 'src/**/*.{ts,tsx}', or a folder such as 'lib' (everything in it); a comma-separated string is split. " +
      "In a multi-root workspace, one starting with a folder's name ('web/src') applies to that folder only.",
  );

export function createSearchTextTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'search_text',
    description:
      'Search the text of the workspace files (ripgrep), literally or by regular expression. Honours .gitignore and .tandemignore; binary files are skipped. ' +
      'Returns numbered path:line hits with the matching line (the first in path order), and the total number of matching lines.',
    readOnly: true,
    input: z.object({
      query: z.string().min(1).describe('The text (or regular expression) to find.'),
      isRegexp: z.boolean().default(false).describe('Treat query as a regular expression (Rust/ripgrep syntax).'),
      caseSensitive: z.boolean().default(false).describe('Match case exactly. Default: ignore case.'),
      include: globList,
      exclude: globList,
      maxResults: z.number().int().min(1).max(500).default(SEARCH_DEFAULT_RESULTS).describe('Most hits to list (all are counted).'),
    }),
    run: async (args, context) => {
      const query: TextSearchQuery = {
        pattern: args.query,
        isRegexp: args.isRegexp,
        caseSensitive: args.caseSensitive,
        include: globsOf(args.include),
        exclude: globsOf(args.exclude),
        maxHits: args.maxResults,
      };
      const outcome = await searchWorkspaceText(deps.host, query, context.signal);
      if (outcome.total === 0 && query.include.length + query.exclude.length > 0) return filteredNoMatch(query);
      return withBreakdown(searchResult(args.query, outcome), outcome);
    },
  });
}

/** Searches every workspace folder as search_text does (find_usages looks for a symbol's first use with it). */
export async function searchWorkspaceText(host: WorkspaceHost, query: TextSearchQuery, signal: AbortSignal): Promise<TextSearchOutcome> {
  const folders = await requireFolders(host);
  const targets: FolderSearchTarget[] = folders.map((folder) => ({ folder, prefix: folders.length > 1 ? `${folder.name}/` : '' }));
  return folders.length > 1 ? searchFolders(host, targets, query, signal) : runSearch(host, targets, query, signal);
}

/**
 * A multi-root search, one folder at a time with the globs as that folder
 * reads them (queryInFolder), merged as one search of them all would be: hits
 * in folder order, the first maxHits kept, every line counted.
 */
async function searchFolders(host: WorkspaceHost, targets: readonly FolderSearchTarget[], query: TextSearchQuery, signal: AbortSignal): Promise<TextSearchOutcome> {
  const hits: TextSearchHit[] = [];
  const perFile = new Map<string, number>();
  let total = 0;
  let files = 0;
  let engine: TextSearchOutcome['engine'] = 'ripgrep';
  for (const target of targets) {
    const scoped = queryInFolder(query, target.folder.name, targets.map((each) => each.folder.name));
    if (scoped === undefined) continue;
    const outcome = await runSearch(host, [target], { ...scoped, maxHits: Math.max(1, query.maxHits - hits.length) }, signal);
    hits.push(...outcome.hits.slice(0, query.maxHits - hits.length));
    for (const [file, lines] of outcome.perFile) perFile.set(file, lines);
    total += outcome.total;
    files += outcome.files;
    if (outcome.engine === 'javascript') engine = 'javascript';
  }
  return { hits, total, files, perFile, engine };
}

async function runSearch(host: WorkspaceHost, targets: FolderSearchTarget[], query: TextSearchQuery, signal: AbortSignal): Promise<TextSearchOutcome> {
  const rgPath = host.ripgrepPath();
  try {
    if (rgPath === undefined) return await javascriptSearch(targets, query, signal);
    try {
      return await ripgrepSearch(rgPath, targets, query, signal);
    } catch (error) {
      // A missing or broken rg falls back to the JavaScript search; the log says why, as the result reads the same.
      if (error instanceof InvalidPatternError || signal.aborted) throw error;
      host.log?.(`search_text: ${error instanceof Error ? error.message : String(error)}; searched with the JavaScript engine instead.`);
      return await javascriptSearch(targets, query, signal);
    }
  } catch (error) {
    // A bad pattern is the model's to fix.
    if (error instanceof InvalidPatternError) throw new WorkspaceToolFault(error.message);
    throw error;
  }
}

/** No match with filters: says which, so the model can drop them rather than conclude the text is absent. */
function globsOf(value: string | string[] | undefined): string[] {
  try {
    return readGlobList(value);
  } catch (error) {
    if (error instanceof GlobListError) throw new WorkspaceToolFault(error.message);
    throw error;
  }
}

function filteredNoMatch(query: TextSearchQuery): ToolResult {
  const listed = (globs: readonly string[]) =>
    globs.slice(0, NAMED_GLOBS).map((glob) => quotedInput(glob)).join(', ') + (globs.length > NAMED_GLOBS ? ` and ${globs.length - NAMED_GLOBS} more` : '');
  const filters = [
    ...(query.include.length > 0 ? [`include ${listed(query.include)}`] : []),
    ...(query.exclude.length > 0 ? [`exclude ${listed(query.exclude)}`] : []),
  ];
  return {
    text: `No matches for ${quotedInput(query.pattern)} in the files left by ${filters.join(' and ')}. Search again without these filters to look in every file.`,
    summary: { kind: 'search', total: 0, top: [] },
  };
}

/** A capped listing ends with where the matches are, so the model can narrow with include or exclude. */
function withBreakdown(result: ToolResult, outcome: TextSearchOutcome): ToolResult {
  if (outcome.hits.length >= outcome.total) return result;
  const { places, more } = busiestPlaces(outcome.perFile, BREAKDOWN_PLACES);
  if (places.length < 2) return result;
  const listed = places.map(({ place, lines }) => `${place} ${lines.toLocaleString('en-US')}`).join(', ');
  const rest = more > 0 ? `, and ${more} more place${more === 1 ? '' : 's'}` : '';
  return { ...result, text: `${result.text}\nMost matching lines: ${listed}${rest}. Narrow the search with include or exclude.` };
}

export function searchResult(query: string, outcome: TextSearchOutcome): ToolResult {
  const { hits, total, files } = outcome;
  if (total === 0) {
    return { text: `No matches for ${quotedInput(query)}.`, summary: { kind: 'search', total: 0, top: [] } };
  }
  const entries = hits.map((hit, index) => `${index + 1}. ${hit.path}:${hit.line}: ${hit.text}`);
  const headline = (shownCount: number | undefined) =>
    `${total} matching lines in ${files} files for ${quotedInput(query)}${shownCount === undefined ? '' : ` (showing the first ${shownCount})`}:`;
  const overflow = (shownCount: number) =>
    `\n[The other ${hits.length - shownCount} of the ${hits.length} hits found do not fit in one result; narrow the query, or limit it with include (e.g. 'src/**') or exclude, to see them.]`;
  return {
    text: fittedListing(entries, total, headline, overflow).text,
    summary: { kind: 'search', total, top: hits.slice(0, 3).map((hit) => ({ title: `${hit.path}:${hit.line}`, snippet: hit.text })) },
  };
}

