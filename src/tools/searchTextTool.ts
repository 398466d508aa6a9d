import { z } from 'zod';
import { ToolError } from '../common/errors';
import { javascriptSearch } from './javascriptSearch';
import { ripgrepSearch } from './ripgrepSearch';
import type { FolderSearchTarget, TextSearchOutcome, TextSearchQuery } from './textSearchQuery';
import type { Tool, ToolResult } from './tool';
import { defineWorkspaceTool, requireFolders, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';

export const SEARCH_DEFAULT_RESULTS = 50;

const globList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe("gitignore-style glob(s), e.g. '*.ts' or 'src/**'; a comma-separated string is split.");

export function createSearchTextTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'search_text',
    description:
      'Search the text of the workspace files (ripgrep), literally or by regular expression. Honours .gitignore and .tandemignore; binary files are skipped. ' +
      'Returns numbered path:line hits with the matching line, and the total number of matching lines.',
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
      const folders = await requireFolders(deps.host);
      const targets: FolderSearchTarget[] = folders.map((folder) => ({ folder, prefix: folders.length > 1 ? `${folder.name}/` : '' }));
      const query: TextSearchQuery = {
        pattern: args.query,
        isRegexp: args.isRegexp,
        caseSensitive: args.caseSensitive,
        include: splitGlobs(args.include),
        exclude: splitGlobs(args.exclude),
        maxHits: args.maxResults,
      };
      const outcome = await runSearch(deps, targets, query, context.signal);
      return searchResult(args.query, outcome);
    },
  });
}

async function runSearch(deps: WorkspaceToolDeps, targets: FolderSearchTarget[], query: TextSearchQuery, signal: AbortSignal): Promise<TextSearchOutcome> {
  const rgPath = deps.host.ripgrepPath();
  if (rgPath === undefined) return javascriptSearch(targets, query, signal);
  try {
    return await ripgrepSearch(rgPath, targets, query, signal);
  } catch (error) {
    // A bad pattern is the model's to fix; a missing or broken rg falls back to the JavaScript search.
    if (error instanceof ToolError && /regex|parse error/iu.test(error.message)) throw new WorkspaceToolFault(error.message);
    if (signal.aborted) throw error;
    return javascriptSearch(targets, query, signal);
  }
}

function splitGlobs(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((glob) => glob.trim()).filter((glob) => glob !== '');
}

export function searchResult(query: string, outcome: TextSearchOutcome): ToolResult {
  const { hits, total, files } = outcome;
  if (total === 0) {
    return { text: `No matches for ${JSON.stringify(query)}.`, summary: { kind: 'search', total: 0, top: [] } };
  }
  const shown = hits.length < total ? ` (showing the first ${hits.length})` : '';
  const lines = [`${total} matching lines in ${files} files for ${JSON.stringify(query)}${shown}:`];
  hits.forEach((hit, index) => lines.push(`${index + 1}. ${hit.path}:${hit.line}: ${hit.text}`));
  return {
    text: lines.join('\n'),
    summary: { kind: 'search', total, top: hits.slice(0, 3).map((hit) => ({ title: `${hit.path}:${hit.line}`, snippet: hit.text })) },
  };
}
