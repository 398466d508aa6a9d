// Turns a server's configuration into what is started: every variable
// resolved (inputs asked once per start), the environment built from the
// inherited one, the envFile and `env`, and relative paths made absolute.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { FileRefusal, readBoundedTextFile } from '../common/boundedFile';
import { ConfigurationError } from '../common/errors';
import type { McpServerDefinition, McpStdioDefinition } from './mcpConfig';
import { inheritedEnvironment } from './mcpServerTrust';
import { describeError, type ResolvedServer } from './mcpSession';
import { parseEnvFile, resolveVariables, type InputAsker, type InputResolver, type VariableContext } from './mcpVariables';

/** Resolves every variable of a server's configuration and builds its environment. */
export async function resolveServer(
  definition: Exclude<McpServerDefinition, { type: 'invalid' }>,
  env: Readonly<Record<string, string | undefined>>,
  inputResolver: InputResolver | undefined,
  signal: AbortSignal,
): Promise<ResolvedServer> {
  const context: VariableContext = {
    workspaceFolder: definition.workspaceFolder,
    env,
    inputs: definition.inputs,
    inputResolver: inputResolver === undefined ? undefined : askOncePerStart(inputResolver, { file: definition.source, server: definition.name }),
    source: `${definition.source}: server "${definition.name}"`,
  };
  const resolve = (value: string): Promise<string> => resolveVariables(value, context, signal);
  const resolveRecord = async (record: Readonly<Record<string, string>>): Promise<Record<string, string>> => {
    const entries = await Promise.all(Object.entries(record).map(async ([key, value]) => [key, await resolve(value)] as const));
    return Object.fromEntries(entries);
  };
  if (definition.type !== 'stdio') {
    return { type: definition.type, url: await resolve(definition.url), headers: await resolveRecord(definition.headers) };
  }
  const cwd = definition.cwd === undefined ? definition.workspaceFolder : await resolve(definition.cwd);
  const folder = cwd === undefined ? undefined : path.resolve(definition.workspaceFolder ?? process.cwd(), cwd);
  // A missing folder makes spawn fail with ENOENT, which would read as a missing command.
  if (folder !== undefined && definition.cwd !== undefined && !(await isDirectory(folder))) {
    throw new ConfigurationError(`The folder "cwd" names does not exist: ${folder}. Check "cwd" in ${definition.source}.`);
  }
  return {
    type: 'stdio',
    command: await resolve(definition.command),
    args: await Promise.all(definition.args.map(resolve)),
    env: await buildEnvironment(definition, env, resolve),
    cwd: folder,
  };
}

/** The same input used in several places is asked for once. */
function askOncePerStart(resolver: InputResolver, asker: InputAsker): InputResolver {
  const answers = new Map<string, Promise<string | undefined>>();
  return {
    resolve: (input, signal) => {
      let answer = answers.get(input.id);
      if (answer === undefined) {
        answer = resolver.resolve(input, signal, asker);
        answers.set(input.id, answer);
      }
      return answer;
    },
  };
}

/** The inherited environment, then the envFile, then `env` (null removes a variable). */
async function buildEnvironment(
  definition: McpStdioDefinition,
  inherited: Readonly<Record<string, string | undefined>>,
  resolve: (value: string) => Promise<string>,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  // OPENAI_API_KEY and AGENT_* are not inherited unless the configuration names them.
  for (const [key, value] of Object.entries(inheritedEnvironment(definition, inherited))) if (value !== undefined) env[key] = value;
  if (definition.envFile !== undefined) {
    const file = path.resolve(definition.workspaceFolder ?? process.cwd(), await resolve(definition.envFile));
    Object.assign(env, parseEnvFile(await readEnvFile(file)));
  }
  for (const [key, value] of Object.entries(definition.env)) {
    if (value === null) delete env[key];
    else env[key] = await resolve(value);
  }
  return env;
}

/** Far above any real .env file. */
export const ENV_FILE_BYTE_LIMIT = 1024 * 1024;

/** The envFile's text; the path comes from a configuration a repository can write. */
async function readEnvFile(file: string): Promise<string> {
  try {
    return await readBoundedTextFile(file, ENV_FILE_BYTE_LIMIT, 'an envFile');
  } catch (error) {
    throw new ConfigurationError(`envFile ${file} cannot be read: ${error instanceof FileRefusal ? error.message : describeError(error)}`);
  }
}

async function isDirectory(folder: string): Promise<boolean> {
  try {
    return (await fs.stat(folder)).isDirectory();
  } catch {
    return false;
  }
}
