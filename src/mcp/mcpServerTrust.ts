// Consent for MCP servers, as VS Code's own MCP trust works: a server a
// workspace defines starts only after the user allowed exactly that
// definition (a hash of it), so a changed definition (say, one the model
// wrote into .vscode/mcp.json) asks again. The user's own settings need no
// consent. Also: what the consent prompt shows, and the environment a stdio
// server inherits.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../agent/canonicalJson';
import type { McpServerDefinition, McpStdioDefinition } from './mcpConfig';
import { maskUrl } from './mcpRedaction';

/** The source of servers from the user's own `tandem.mcp.servers` (user scope): trusted. */
export const USER_SETTINGS_SOURCE = 'settings';
/** The source of servers from a workspace's `tandem.mcp.servers` value (after settings consent). */
export const WORKSPACE_SETTINGS_SOURCE = 'workspace settings';

export type StartableDefinition = Exclude<McpServerDefinition, { type: 'invalid' }>;

/** Only the user's own settings are trusted without asking. */
export function needsConsent(definition: McpServerDefinition): boolean {
  return definition.source !== USER_SETTINGS_SOURCE;
}

/**
 * Identifies a definition: every field that decides what runs, where requests
 * (and a sign-in) go, and how results are used. Fields left out are not in the
 * text at all, so adding one here keeps the hash of definitions without it.
 */
export function definitionHash(definition: StartableDefinition): string {
  const { name, source, workspaceFolder, inputs, timeoutMs, cacheable } = definition;
  const what =
    definition.type === 'stdio'
      ? { command: definition.command, args: definition.args, env: definition.env, envFile: definition.envFile, cwd: definition.cwd }
      : { url: definition.url, headers: definition.headers, oauth: definition.oauth };
  return createHash('sha256')
    .update(canonicalJson({ name, source, workspaceFolder, inputs, type: definition.type, timeoutMs, cacheable, ...what }))
    .digest('hex');
}

/** The key a decision is stored under: workspace, server (source and name) and definition hash. */
export function consentKey(workspace: string, definition: StartableDefinition): string {
  return `${workspace}|${definition.source}|${definition.name}|${definitionHash(definition)}`;
}

const ENV_VARIABLE = /\$\{env:([^}]+)\}/g;

/** `${env:NAME}` names used in a value. */
function envNames(value: string): string[] {
  return [...value.matchAll(ENV_VARIABLE)].map((match) => match[1] ?? '');
}

/** Resolves `${env:…}` and `${workspaceFolder}` for display; inputs stay as written. */
function resolveForDisplay(value: string, definition: StartableDefinition, env: Readonly<Record<string, string | undefined>>): string {
  return value
    .replace(ENV_VARIABLE, (_whole, name: string) => env[name] ?? '')
    .replace(/\$\{(workspaceFolder|workspaceRoot)\}/g, definition.workspaceFolder ?? '${workspaceFolder}');
}

function quote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : JSON.stringify(argument);
}

/**
 * What the consent prompt shows: the command line (or the host a remote server
 * reaches, resolved), and where each `${env:…}` value would go.
 */
export function describeForConsent(definition: StartableDefinition, env: Readonly<Record<string, string | undefined>>): string {
  const lines: string[] = [`From ${definition.source}`];
  const envUses: string[] = [];
  const note = (place: string, value: string) => {
    for (const name of envNames(value)) envUses.push(`\${env:${name}} → ${place}`);
  };
  if (definition.type === 'stdio') {
    lines.push(`Runs: ${[definition.command, ...definition.args].map(quote).join(' ')}`);
    if (definition.cwd !== undefined) lines.push(`In: ${definition.cwd}`);
    note('the command line', definition.command);
    for (const argument of definition.args) note('the command line', argument);
    for (const [name, value] of Object.entries(definition.env)) {
      if (value === null) continue;
      lines.push(`Environment: ${name}=${value}`);
      note(`the server's environment (${name})`, value);
    }
    if (definition.envFile !== undefined) lines.push(`Environment file: ${definition.envFile}`);
  } else {
    const resolved = resolveForDisplay(definition.url, definition, env);
    let host = resolved;
    try {
      host = new URL(resolved).host;
    } catch {
      // Shown as resolved; the connection will fail with a clear error.
    }
    lines.push(`Connects to: ${host} (${definition.type}, ${maskUrl(resolved)})`);
    note(`the URL sent to ${host}`, definition.url);
    for (const [name, value] of Object.entries(definition.headers)) {
      lines.push(`Header: ${name}: ${value}`);
      note(`the ${name} header sent to ${host}`, value);
    }
  }
  if (envUses.length > 0) lines.push('Your environment variables it receives:', ...envUses.map((use) => `  ${use}`));
  return lines.join('\n');
}

/** Variables a stdio server never inherits unless its configuration names them: keys and the agent's own settings. */
export function isWithheldVariable(name: string): boolean {
  return name === 'OPENAI_API_KEY' || name.startsWith('AGENT_');
}

/** Names a stdio definition mentions: its `env` keys and every `${env:NAME}` it uses. */
function namedVariables(definition: McpStdioDefinition): Set<string> {
  const names = new Set(Object.keys(definition.env));
  for (const value of [definition.command, ...definition.args, ...Object.values(definition.env), definition.cwd ?? '']) {
    if (value !== null) for (const name of envNames(value)) names.add(name);
  }
  return names;
}

/** The environment a stdio server inherits: everything but the withheld variables its configuration does not name. */
export function inheritedEnvironment(
  definition: McpStdioDefinition,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const named = namedVariables(definition);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isWithheldVariable(name) || named.has(name)));
}

/** Hex characters of a definition's hash that an "Always allow" entry carries (`name@<stamp>`). */
const ALWAYS_ALLOW_HASH_CHARS = 12;

/** What ties an "Always allow" entry to one exact definition of a workspace's server. */
export function definitionStamp(definition: Parameters<typeof definitionHash>[0]): string {
  return definitionHash(definition).slice(0, ALWAYS_ALLOW_HASH_CHARS);
}
