// Tandem's own slash commands, listed after the MCP prompts and the prompt
// files (a repository's `/init` goes first: it is the repository's choice).
// `/init` has the agent study the workspace and write its AGENTS.md, the file
// every run then reads (tandem.agent.rulesFiles); AGENTS.md is a sensitive
// path, so the write is always the user's to approve.
import type { SlashCommand } from '../protocol/webviewMessages';

export interface BuiltinExpansion {
  readonly text: string;
  /** The mode the command needs, whatever the panel's toggle says. */
  readonly mode: 'agent' | 'chat';
}

const INIT_PROMPT = [
  'Study this workspace and write an AGENTS.md at its root: the instructions a coding agent needs before it changes anything here.',
  '',
  '- Read before you write: the README, the package or build manifests and their scripts, the CI configuration, and the existing agent rules (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .cursorrules, .clinerules, .github/instructions/).',
  '- Cover: what the project is in two lines; how to install, build, test (one test too), lint and format, with the exact commands the repository defines; the layout (which folder holds what); the conventions the code follows; what to avoid (generated files, slow suites, secrets).',
  '- State only what the files show. Leave out what you could not confirm, and generic advice any project would get.',
  '- Keep it short: headings and bullets, under 100 lines.',
  '- If an AGENTS.md exists, improve it: keep what is still true, fix what is not, add what is missing. Fold in what the other rules files say rather than repeating them.',
  '- Write the file with a tool (the user approves the change), then say in a few lines what it covers.',
].join('\n');

const COMMANDS: readonly (SlashCommand & { readonly expand: (rest: string) => BuiltinExpansion })[] = [
  {
    command: 'init',
    description: 'Study the workspace and write its AGENTS.md (you approve the file)',
    arguments: [],
    expand: (rest) => ({ text: rest ? `${INIT_PROMPT}\n\nAlso: ${rest}` : INIT_PROMPT, mode: 'agent' }),
  },
];

/** The built-in commands as the prompt box lists them. */
export function builtinCommands(): SlashCommand[] {
  return COMMANDS.map(({ command, description, arguments: names }) => ({ command, description, arguments: names }));
}

/** The message `/name rest` becomes when `name` is a built-in command; undefined otherwise. */
export function expandBuiltinCommand(text: string): BuiltinExpansion | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const found = match && COMMANDS.find((each) => each.command === match[1]);
  return found ? found.expand((match[2] ?? '').trim()) : undefined;
}
