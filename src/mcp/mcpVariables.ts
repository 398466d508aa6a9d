// Resolves the variables VS Code allows in mcp.json values: ${workspaceFolder},
// ${workspaceFolderBasename}, ${userHome}, ${pathSeparator}, ${env:NAME} and
// ${input:id}. Inputs are asked through an injected resolver, once per id.
import * as os from 'node:os';
import * as path from 'node:path';
import { CancelledError, ConfigurationError } from '../common/errors';
import type { McpInputDefinition } from './mcpConfig';

/** Who asks for an input: the prompt names them, since the input's own description is the config file's words. */
export interface InputAsker {
  /** The config file (or settings source) the input belongs to: values are kept per file. */
  readonly file: string;
  /** The server whose start needs the value. */
  readonly server: string;
}

/** Asks the user for an input's value (the host shows an input box or quick pick and keeps passwords secret). */
export interface InputResolver {
  /** Resolves undefined when the user dismissed the prompt. */
  resolve(input: McpInputDefinition, signal: AbortSignal, asker?: InputAsker): Promise<string | undefined>;
}

export interface VariableContext {
  readonly workspaceFolder: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputs: readonly McpInputDefinition[];
  readonly inputResolver: InputResolver | undefined;
  /** Where the value comes from, for error messages. */
  readonly source: string;
}

const VARIABLE = /\$\{([^}]+)\}/g;

export async function resolveVariables(value: string, context: VariableContext, signal: AbortSignal): Promise<string> {
  const matches = [...value.matchAll(VARIABLE)];
  if (matches.length === 0) return value;
  const replacements = new Map<string, string>();
  for (const match of matches) {
    const variable = match[1] ?? '';
    if (!replacements.has(variable)) replacements.set(variable, await resolveVariable(variable, context, signal));
  }
  return value.replace(VARIABLE, (whole: string, variable: string) => replacements.get(variable) ?? whole);
}

async function resolveVariable(variable: string, context: VariableContext, signal: AbortSignal): Promise<string> {
  if (variable === 'workspaceFolder' || variable === 'workspaceRoot') return requireFolder(context, variable);
  if (variable === 'workspaceFolderBasename') return path.basename(requireFolder(context, variable));
  if (variable === 'userHome') return os.homedir();
  if (variable === 'pathSeparator' || variable === '/') return path.sep;
  if (variable.startsWith('env:')) return context.env[variable.slice('env:'.length)] ?? '';
  if (variable.startsWith('input:')) return resolveInput(variable.slice('input:'.length), context, signal);
  // Left as written, as VS Code does with variables it does not know.
  return `\${${variable}}`;
}

function requireFolder(context: VariableContext, variable: string): string {
  if (context.workspaceFolder === undefined) {
    throw new ConfigurationError(`${context.source}: \${${variable}} is used but no workspace folder is open.`);
  }
  return context.workspaceFolder;
}

async function resolveInput(id: string, context: VariableContext, signal: AbortSignal): Promise<string> {
  // An id the file does not declare is asked as a secret string (the setting has no `inputs`).
  const input: McpInputDefinition = context.inputs.find((candidate) => candidate.id === id) ?? {
    type: 'promptString',
    id,
    description: id,
    default: undefined,
    password: true,
  };
  if (context.inputResolver === undefined) {
    throw new ConfigurationError(`${context.source}: \${input:${id}} needs a value, and nobody can be asked here.`);
  }
  const value = await context.inputResolver.resolve(input, signal);
  if (signal.aborted) throw new CancelledError();
  if (value === undefined) throw new ConfigurationError(`${context.source}: no value was given for \${input:${id}}.`);
  return value;
}

/** Parses a dotenv file: KEY=VALUE lines, `#` comments, optional `export ` and quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (match === null) continue;
    const key = match[1] ?? '';
    let value = match[2] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    env[key] = value;
  }
  return env;
}
