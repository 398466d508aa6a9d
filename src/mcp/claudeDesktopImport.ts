// Imports a Claude-Desktop style `mcpServers` file into VS Code's `servers`
// shape, and merges servers into an mcp.json text keeping its comments.
// The ESM build: esbuild cannot follow the UMD build's runtime requires (./impl/format).
import { applyEdits, modify, parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { isRecord } from './isRecord';

export interface ImportedServers {
  /** Server name -> configuration in `.vscode/mcp.json` shape. */
  readonly servers: Record<string, Record<string, unknown>>;
  /** One message per entry that could not be imported. */
  readonly errors: readonly string[];
}

/** Reads `{ "mcpServers": { name: { command, args, env } | { url, headers } } }` (a bare map is accepted too). */
export function importClaudeDesktopConfig(text: string, source: string): ImportedServers {
  const parseErrors: ParseError[] = [];
  const root: unknown = parseJsonc(text, parseErrors, { allowTrailingComma: true });
  if (parseErrors.length > 0 || !isRecord(root)) {
    const fault = parseErrors[0] === undefined ? 'the top level must be an object' : `${printParseErrorCode(parseErrors[0].error)} at offset ${parseErrors[0].offset}`;
    return { servers: {}, errors: [`${source}: not valid JSON: ${fault}.`] };
  }
  const entries = root['mcpServers'] ?? root['servers'] ?? root;
  if (!isRecord(entries)) return { servers: {}, errors: [`${source}: "mcpServers" must be an object.`] };
  const servers: Record<string, Record<string, unknown>> = {};
  const errors: string[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const converted = isRecord(entry) ? convertEntry(entry) : undefined;
    if (converted === undefined) errors.push(`${source}: server "${name}" has neither "command" nor "url"; skipped.`);
    else servers[name] = converted;
  }
  return { servers, errors };
}

function convertEntry(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof entry['command'] === 'string') {
    const server: Record<string, unknown> = { type: 'stdio', command: entry['command'] };
    if (Array.isArray(entry['args'])) server['args'] = entry['args'].map(String);
    if (isRecord(entry['env'])) server['env'] = entry['env'];
    if (typeof entry['cwd'] === 'string') server['cwd'] = entry['cwd'];
    return server;
  }
  if (typeof entry['url'] === 'string') {
    const declared = entry['type'] ?? entry['transport'];
    const server: Record<string, unknown> = { type: declared === 'sse' ? 'sse' : 'http', url: entry['url'] };
    if (isRecord(entry['headers'])) server['headers'] = entry['headers'];
    return server;
  }
  return undefined;
}

export interface MergeResult {
  readonly text: string;
  readonly added: readonly string[];
  /** Names already present in the file; they are left as they are. */
  readonly skipped: readonly string[];
}

/** Adds servers to an mcp.json text (possibly empty), keeping comments and formatting. */
export function mergeServersIntoMcpJson(text: string, servers: Record<string, Record<string, unknown>>): MergeResult {
  let result = text.trim() === '' ? '{\n\t"servers": {}\n}\n' : text;
  const root: unknown = parseJsonc(result, [], { allowTrailingComma: true });
  const existing = isRecord(root) && isRecord(root['servers']) ? root['servers'] : {};
  const added: string[] = [];
  const skipped: string[] = [];
  for (const [name, server] of Object.entries(servers)) {
    if (name in existing) {
      skipped.push(name);
      continue;
    }
    const edits = modify(result, ['servers', name], server, { formattingOptions: { insertSpaces: false, tabSize: 4, eol: '\n' } });
    result = applyEdits(result, edits);
    added.push(name);
  }
  return { text: result, added, skipped };
}
