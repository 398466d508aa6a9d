// MCP server configuration in VS Code's `.vscode/mcp.json` shape, validated
// with zod at the border. Each server entry is checked on its own: a bad entry
// becomes an invalid definition (shown as an error status) and never stops the
// others; only a file that cannot be parsed at all yields no servers.
// The ESM build: esbuild cannot follow the UMD build's runtime requires (./impl/format).
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { z } from 'zod';
import { isRecord } from './isRecord';
import { lineAndColumn } from '../common/textPosition';

/** The most of an mcp.json Tandem reads: far above any real one (VS Code's own files are a few KB). */
export const MCP_CONFIG_BYTE_LIMIT = 1024 * 1024;

export type McpInputDefinition =
  | {
      readonly type: 'promptString';
      readonly id: string;
      readonly description: string | undefined;
      readonly default: string | undefined;
      readonly password: boolean;
    }
  | {
      readonly type: 'pickString';
      readonly id: string;
      readonly description: string | undefined;
      readonly default: string | undefined;
      readonly options: readonly string[];
      readonly password: false;
    };

interface DefinitionBase {
  readonly name: string;
  /** The config file path, or 'settings'. */
  readonly source: string;
  /** Folder `${workspaceFolder}` stands for; undefined when there is none. */
  readonly workspaceFolder: string | undefined;
  /** The inputs of the file the server came from. */
  readonly inputs: readonly McpInputDefinition[];
  /** Per-call timeout in milliseconds; undefined = the hub's default. */
  readonly timeoutMs: number | undefined;
  /** The user allows reusing results of identical read-only calls within a run (`"cacheable": true`). */
  readonly cacheable?: boolean | undefined;
  /**
   * `"roots": false`: the workspace's folders are not offered to this server
   * as MCP roots, so it keeps the folders its own arguments name (the
   * filesystem server replaces those with a client's roots).
   */
  readonly roots?: false | undefined;
  /** `"sampling": false`: the server is not offered the model (MCP sampling), so it cannot ask for it. */
  readonly sampling?: false | undefined;
}

export interface McpStdioDefinition extends DefinitionBase {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** A null value removes the variable from the inherited environment. */
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile: string | undefined;
  readonly cwd: string | undefined;
}

export interface McpRemoteDefinition extends DefinitionBase {
  /** `http` tries Streamable HTTP and falls back to SSE on a 4xx; `sse` goes straight to SSE. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** OAuth: a client registered beforehand with the server's authorization server, and the scopes to ask for. */
  readonly oauth?:
    | {
        readonly clientId?: string | undefined;
        /** An https URL of a Client ID Metadata Document the user (or their organisation) hosts. */
        readonly clientMetadataUrl?: string | undefined;
        readonly scopes?: readonly string[] | undefined;
      }
    | undefined;
}

/** An entry that failed validation; the hub shows it as an error status. */
export interface McpInvalidDefinition extends DefinitionBase {
  readonly type: 'invalid';
  readonly error: string;
}

export type McpServerDefinition = McpStdioDefinition | McpRemoteDefinition | McpInvalidDefinition;

export interface McpConfigFile {
  readonly source: string;
  readonly servers: readonly McpServerDefinition[];
  readonly inputs: readonly McpInputDefinition[];
  /** File-level faults, each naming the file; servers that could be read are still listed. */
  readonly errors: readonly string[];
}

const envValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const timeout = z.number().int().positive().optional();
const cacheable = z.boolean().optional();
const roots = z.boolean().optional();
const sampling = z.boolean().optional();

const stdioSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'must not be empty'),
  args: z.array(z.union([z.string(), z.number()])).optional(),
  env: z.record(z.string(), envValue).optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  timeout,
  cacheable,
  roots,
  sampling,
});

const remoteSchema = z.looseObject({
  type: z.enum(['http', 'sse']).optional(),
  url: z.string().trim().min(1, 'must not be empty'),
  headers: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  oauth: z
    .strictObject({
      clientId: z.string().trim().min(1, 'must not be empty').optional(),
      // The authorization server fetches this document, so it must be https with a path (the SDK checks the same).
      clientMetadataUrl: z
        .string()
        .trim()
        .refine((value) => {
          try {
            const url = new URL(value);
            return url.protocol === 'https:' && url.pathname !== '/';
          } catch {
            return false;
          }
        }, 'must be an https URL with a path, e.g. https://example.com/tandem-client.json')
        .optional(),
      scopes: z.array(z.string().trim().min(1)).optional(),
    })
    .optional(),
  timeout,
  cacheable,
  roots,
  sampling,
});

const inputSchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('promptString'),
    id: z.string().min(1),
    description: z.string().optional(),
    default: z.string().optional(),
    password: z.boolean().optional(),
  }),
  z.looseObject({
    type: z.literal('pickString'),
    id: z.string().min(1),
    description: z.string().optional(),
    default: z.string().optional(),
    options: z.array(z.union([z.string(), z.looseObject({ value: z.string(), label: z.string().optional() })])).min(1),
  }),
]);

/** Parses the text of a `.vscode/mcp.json` (JSONC: comments and trailing commas allowed). */
export function parseMcpConfigText(text: string, source: string, workspaceFolder: string | undefined): McpConfigFile {
  const parseErrors: ParseError[] = [];
  const root: unknown = parseJsonc(text, parseErrors, { allowTrailingComma: true, disallowComments: false });
  if (parseErrors.length > 0) {
    const faults = parseErrors.slice(0, 3).map((fault) => `${printParseErrorCode(fault.error)} at ${lineAndColumn(text, fault.offset)}`);
    return { source, servers: [], inputs: [], errors: [`${source}: not valid JSON: ${faults.join('; ')}.`] };
  }
  if (text.trim() === '') return { source, servers: [], inputs: [], errors: [] };
  if (!isRecord(root)) return { source, servers: [], inputs: [], errors: [`${source}: the top level must be an object.`] };

  const errors: string[] = [];
  const inputs = parseInputs(root['inputs'], source, errors);
  // Be lenient with a Claude-Desktop style file saved as mcp.json.
  const serversValue = root['servers'] ?? root['mcpServers'];
  if (serversValue !== undefined && !isRecord(serversValue)) {
    errors.push(`${source}: "servers" must be an object of server name -> server configuration.`);
    return { source, servers: [], inputs, errors };
  }
  const servers = parseServerEntries(serversValue ?? {}, { source, workspaceFolder, inputs });
  return { source, servers, inputs, errors };
}

/** Parses the `tandem.mcp.servers` setting (the `servers` object alone, no inputs). */
export function parseMcpServersSetting(value: unknown, workspaceFolder: string | undefined): McpConfigFile {
  const source = 'settings';
  if (value === undefined || value === null) return { source, servers: [], inputs: [], errors: [] };
  if (!isRecord(value)) {
    return { source, servers: [], inputs: [], errors: ['settings: "tandem.mcp.servers" must be an object of server name -> server configuration.'] };
  }
  return { source, servers: parseServerEntries(value, { source, workspaceFolder, inputs: [] }), inputs: [], errors: [] };
}

interface EntryContext {
  readonly source: string;
  readonly workspaceFolder: string | undefined;
  readonly inputs: readonly McpInputDefinition[];
}

function parseServerEntries(entries: Record<string, unknown>, context: EntryContext): McpServerDefinition[] {
  return Object.entries(entries).map(([name, entry]) => parseServerEntry(name, entry, context));
}

function parseServerEntry(name: string, entry: unknown, context: EntryContext): McpServerDefinition {
  const base = { name, source: context.source, workspaceFolder: context.workspaceFolder, inputs: context.inputs };
  const invalid = (error: string): McpInvalidDefinition => ({ ...base, type: 'invalid', error: `${context.source}: server "${name}": ${error}`, timeoutMs: undefined });
  if (!isRecord(entry)) return invalid('must be an object.');
  const declared = entry['type'];
  if (declared === undefined && entry['url'] !== undefined && entry['command'] !== undefined) {
    return invalid('has both "command" and "url": set "type" to "stdio" or "http", or remove one of them.');
  }
  const isRemote = declared === 'http' || declared === 'sse' || (declared === undefined && entry['url'] !== undefined && entry['command'] === undefined);
  if (declared !== undefined && declared !== 'stdio' && !isRemote) {
    return invalid(`unknown "type" ${JSON.stringify(declared)} (expected "stdio", "http" or "sse").`);
  }
  if (isRemote) {
    const parsed = remoteSchema.safeParse(entry);
    if (!parsed.success) return invalid(describeIssues(parsed.error));
    if (!/^https?:\/\//i.test(parsed.data.url)) return invalid(`"url" must be an http(s) URL, got ${JSON.stringify(parsed.data.url)}.`);
    return {
      ...base,
      type: parsed.data.type ?? 'http',
      url: parsed.data.url,
      headers: mapValues(parsed.data.headers ?? {}, String),
      ...(parsed.data.oauth === undefined ? {} : { oauth: definedOnly({ clientId: parsed.data.oauth.clientId, clientMetadataUrl: parsed.data.oauth.clientMetadataUrl, scopes: parsed.data.oauth.scopes }) }),
      timeoutMs: parsed.data.timeout,
      ...(parsed.data.cacheable && { cacheable: true }),
      ...(parsed.data.roots === false && { roots: false as const }),
      ...(parsed.data.sampling === false && { sampling: false as const }),
    };
  }
  const parsed = stdioSchema.safeParse(entry);
  if (!parsed.success) return invalid(describeIssues(parsed.error));
  return {
    ...base,
    type: 'stdio',
    command: parsed.data.command,
    args: (parsed.data.args ?? []).map(String),
    env: mapValues(parsed.data.env ?? {}, (value) => (value === null ? null : String(value))),
    envFile: parsed.data.envFile,
    cwd: parsed.data.cwd,
    timeoutMs: parsed.data.timeout,
    ...(parsed.data.cacheable && { cacheable: true }),
    ...(parsed.data.roots === false && { roots: false as const }),
    ...(parsed.data.sampling === false && { sampling: false as const }),
  };
}

function parseInputs(value: unknown, source: string, errors: string[]): McpInputDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.push(`${source}: "inputs" must be an array.`);
    return [];
  }
  const inputs: McpInputDefinition[] = [];
  value.forEach((item, index) => {
    const parsed = inputSchema.safeParse(item);
    if (!parsed.success) {
      const type = isRecord(item) ? item['type'] : undefined;
      const fault = type === 'command' ? 'inputs of type "command" are not supported' : describeIssues(parsed.error);
      errors.push(`${source}: inputs[${index}]: ${fault}`);
      return;
    }
    const input = parsed.data;
    if (input.type === 'promptString') {
      inputs.push({ type: 'promptString', id: input.id, description: input.description, default: input.default, password: input.password ?? false });
    } else {
      const options = input.options.map((option) => (typeof option === 'string' ? option : option.value));
      inputs.push({ type: 'pickString', id: input.id, description: input.description, default: input.default, options, password: false });
    }
  });
  return inputs;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `"${issue.path.join('.')}" ${issue.message}` : issue.message))
    .join('; ');
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/** The entries whose value is set (so an absent option stays absent, not `undefined`). */
function definedOnly<T extends Record<string, unknown>>(entries: T): Partial<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Partial<T>;
}
