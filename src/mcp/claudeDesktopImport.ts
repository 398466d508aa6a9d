// Imports a Claude-Desktop style `mcpServers` file into VS Code's `servers`
// shape, and merges servers into an mcp.json text keeping its comments.
// The ESM build: esbuild cannot follow the UMD build's runtime requires (./impl/format).
import { applyEdits, modify, parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { isRecord } from './isRecord';

export interface ImportedServers {
  /** Server name -> configuration in `.vscode/mcp.json` shape; secret values replaced by `${input:id}`. */
  readonly servers: Record<string, Record<string, unknown>>;
  /** A `promptString` input with `password: true` for each secret value taken out. */
  readonly inputs: readonly ImportedInput[];
  /** Input id -> the secret value it replaced, for the host to keep in SecretStorage (never in a file). */
  readonly secrets: Readonly<Record<string, string>>;
  /** One message per entry that could not be imported. */
  readonly errors: readonly string[];
}

export interface ImportedInput {
  readonly type: 'promptString';
  readonly id: string;
  readonly description: string;
  readonly password: true;
}

/** Names of env variables and headers whose values are secrets. */
const SECRET_NAME = /(key|token|secret|passw|pwd|auth|credential|cookie|session|bearer|private|signature|pat$)/i;
/** Values that look like a credential whatever their name. */
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|ghs_|github_pat_|xox[abprs]-|glpat-|AKIA|AIza|eyJ)[\w.-]{6,}/;

/** True for a value that should not be written to a file in plain text. */
export function isSecretLooking(name: string, value: string): boolean {
  if (value.trim() === '' || value.includes('${')) return false;
  const bare = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
  return SECRET_NAME.test(name) || SECRET_VALUE.test(bare);
}

/** Reads `{ "mcpServers": { name: { command, args, env } | { url, headers } } }` (a bare map is accepted too). */
export function importClaudeDesktopConfig(text: string, source: string): ImportedServers {
  const parseErrors: ParseError[] = [];
  const root: unknown = parseJsonc(text, parseErrors, { allowTrailingComma: true });
  if (parseErrors.length > 0 || !isRecord(root)) {
    const fault = parseErrors[0] === undefined ? 'the top level must be an object' : `${printParseErrorCode(parseErrors[0].error)} at offset ${parseErrors[0].offset}`;
    return { servers: {}, inputs: [], secrets: {}, errors: [`${source}: not valid JSON: ${fault}.`] };
  }
  const entries = root['mcpServers'] ?? root['servers'] ?? root;
  if (!isRecord(entries)) return { servers: {}, inputs: [], secrets: {}, errors: [`${source}: "mcpServers" must be an object.`] };
  const servers: Record<string, Record<string, unknown>> = {};
  const inputs: ImportedInput[] = [];
  const secrets: Record<string, string> = {};
  const errors: string[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const converted = isRecord(entry) ? convertEntry(entry) : undefined;
    if (converted === undefined) {
      errors.push(`${source}: server "${name}" has neither "command" nor "url"; skipped.`);
      continue;
    }
    for (const field of ['env', 'headers'] as const) {
      const values = converted[field];
      if (isRecord(values)) converted[field] = extractSecrets(name, values, inputs, secrets);
    }
    servers[name] = converted;
  }
  return { servers, inputs, secrets, errors };
}

/** Replaces secret values by `${input:<server>-<name>}` (keeping a `Bearer ` prefix) and records the inputs. */
function extractSecrets(
  server: string,
  values: Record<string, unknown>,
  inputs: ImportedInput[],
  secrets: Record<string, string>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string' || !isSecretLooking(name, value)) {
      result[name] = value;
      continue;
    }
    const id = `${server}-${name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
    const prefix = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
    result[name] = `${prefix}\${input:${id}}`;
    secrets[id] = value.slice(prefix.length);
    if (!inputs.some((input) => input.id === id)) inputs.push({ type: 'promptString', id, description: `${name} for the MCP server "${server}"`, password: true });
  }
  return result;
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

/** Adds servers (and the inputs they use) to an mcp.json text (possibly empty), keeping comments and formatting. */
export function mergeServersIntoMcpJson(
  text: string,
  servers: Record<string, Record<string, unknown>>,
  inputs: readonly ImportedInput[] = [],
): MergeResult {
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
  const current: unknown = parseJsonc(result, [], { allowTrailingComma: true });
  const known = isRecord(current) && Array.isArray(current['inputs']) ? current['inputs'] : [];
  const knownIds = new Set(known.flatMap((input: unknown) => (isRecord(input) && typeof input['id'] === 'string' ? [input['id']] : [])));
  const formattingOptions = { insertSpaces: false, tabSize: 4, eol: '\n' };
  if (!Array.isArray(isRecord(current) ? current['inputs'] : undefined) && inputs.length > 0) {
    result = applyEdits(result, modify(result, ['inputs'], [], { formattingOptions }));
  }
  const addedText = JSON.stringify(added.map((name) => servers[name]));
  for (const input of inputs) {
    if (knownIds.has(input.id) || !addedText.includes(`\${input:${input.id}}`)) continue;
    result = applyEdits(result, modify(result, ['inputs', -1], input, { formattingOptions, isArrayInsertion: true }));
    knownIds.add(input.id);
  }
  return { text: result, added, skipped };
}
