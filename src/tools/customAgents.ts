// A repository's custom agents: Copilot's `.github/agents/*.agent.md` (and
// its older `.github/chatmodes/*.chatmode.md`) and Tandem's own
// `.tandem/agents/*.md`. The one chosen (`tandem.agent.customAgent`) joins
// every run as a rules file does: its text goes into both models' system
// prompts, and its front matter's `tools:` narrows what the runs may use
// (promptFileTools.ts) — never widens it or skips an approval. Read like
// rules files: inside the folder after links, not what .tandemignore keeps
// out, capped.
import { frontMatterList, frontMatterScalar, splitFrontMatter } from './frontMatter';
import { baseNameWithout, loadNamedFiles } from './namedRepositoryFiles';
import { RULE_FILE_CHAR_LIMIT, type RuleFile } from './rulesFiles';

/** Where custom agents are looked for in each workspace folder, in this order (the first of a name wins). */
export const CUSTOM_AGENT_PATTERNS = ['.tandem/agents/*.md', '.github/agents/*.agent.md', '.github/chatmodes/*.chatmode.md'] as const;

export interface CustomAgent {
  /** The file's name without `.agent.md`, `.chatmode.md` or `.md`: what `tandem.agent.customAgent` holds. */
  readonly name: string;
  /** The workspace-relative path, with the folder's name in a multi-root workspace. */
  readonly file: string;
  readonly description: string | undefined;
  /** Its `tools:`; undefined: every tool. */
  readonly tools: readonly string[] | undefined;
  /** Its instructions: the text after the front matter. */
  readonly body: string;
}

export function parseCustomAgent(name: string, file: string, source: string): CustomAgent {
  const { frontMatter = '', body } = splitFrontMatter(source);
  return { name, file, description: frontMatterScalar(frontMatter, 'description'), tools: frontMatterList(frontMatter, 'tools'), body: body.trim() };
}

/** The agent's instructions as the run's rules carry them (capped as a rules file is). */
export function customAgentRule(agent: CustomAgent): RuleFile {
  const text = `The custom agent "${agent.name}" the user works with: follow its instructions.\n\n${agent.body}`;
  return text.length > RULE_FILE_CHAR_LIMIT ? { path: agent.file, text: text.slice(0, RULE_FILE_CHAR_LIMIT), cut: { shown: RULE_FILE_CHAR_LIMIT, of: text.length } } : { path: agent.file, text };
}

type Folders = readonly { readonly path: string; readonly name?: string | undefined }[];

/** The custom agents of these folders; a name already taken (by an earlier place or folder) is skipped. */
export async function loadCustomAgents(folders: Folders, patterns: readonly string[] = CUSTOM_AGENT_PATTERNS): Promise<CustomAgent[]> {
  const files = await loadNamedFiles(folders, patterns, (relative) => baseNameWithout(relative, ['.agent.md', '.chatmode.md', '.md']));
  return files.map(({ name, file, text }) => parseCustomAgent(name, file, text));
}

/** The agent called `name`, reading only that name's files (a run looks it up at its start); undefined when none is. */
export async function loadCustomAgent(folders: Folders, name: string): Promise<CustomAgent | undefined> {
  if (!/^[\w-][\w.-]{0,63}$/.test(name)) return undefined;
  return (await loadCustomAgents(folders, CUSTOM_AGENT_PATTERNS.map((pattern) => pattern.replace('*', name))))[0];
}

/** The run's rules with the agent's text first (the Rules notice names its file). */
export function withCustomAgent<T extends { readonly rules: readonly RuleFile[] }>(agent: CustomAgent | undefined, rules: T): T {
  return agent ? { ...rules, rules: [customAgentRule(agent), ...rules.rules] } : rules;
}

/** What a user whose `tandem.agent.customAgent` names no file is told. */
export function missingAgentMessage(name: string): string {
  return `tandem.agent.customAgent names "${name}", but this workspace has no such agent (${CUSTOM_AGENT_PATTERNS.map((pattern) => pattern.replace('*', name)).join(', ')}): runs go on without it.`;
}
