// Whether `tandem.tools.alwaysAllow` lets a run_command call run unasked, and
// the prefix the approval card offers ("Always allow commands starting with …").
import { analyzeCommand } from './commandChain';

export const RUN_COMMAND_TOOL = 'run_command';
export const COMMAND_PREFIX_KEY = `${RUN_COMMAND_TOOL}:`;

/** Tools whose first word is usually followed by a subcommand worth keeping in the prefix. */
const SUBCOMMAND_TOOLS = new Set(['npm', 'pnpm', 'yarn', 'npx', 'git', 'cargo', 'go', 'dotnet', 'docker', 'kubectl', 'make', 'mvn', 'gradle', 'pip', 'uv', 'poetry', 'bun', 'deno']);

/** Subcommands that run whatever comes next (a script, a package): the next word stays in the prefix too. */
const RUNNER_SUBCOMMANDS = new Set(['run', 'run-script', 'exec', 'x', 'dlx']);

/**
 * Programs whose reach is all in their arguments (shells and interpreters,
 * wrappers that run another command, deleting and moving): "always allow
 * bash" would allow anything, so only the whole command is offered.
 */
const WHOLE_COMMAND_PROGRAMS = new Set([
  'sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'node', 'python', 'python3', 'perl', 'ruby', 'php', 'pwsh', 'powershell',
  'env', 'sudo', 'doas', 'xargs', 'eval', 'exec', 'nohup', 'time', 'timeout', 'nice', 'watch', 'ssh', 'find', 'sed', 'awk',
  'rm', 'rmdir', 'mv', 'cp', 'dd', 'chmod', 'chown', 'kill', 'pkill', 'curl', 'wget',
]);

export interface CommandDecision {
  readonly allowed: boolean;
  /** Parts no rule covers (all parts when the command must ask). */
  readonly uncovered: readonly string[];
  readonly reason: string | undefined;
}

/** The `run_command:<prefix>` entries of an allow list, trimmed and whitespace-normalised. */
export function commandPrefixes(alwaysAllow: readonly string[]): string[] {
  return alwaysAllow
    .filter((entry) => entry.startsWith(COMMAND_PREFIX_KEY))
    .map((entry) => normalize(entry.slice(COMMAND_PREFIX_KEY.length)))
    .filter(Boolean);
}

/** A command runs unasked only when every part of it starts with an allowed prefix (at a word boundary). */
export function decideCommand(command: string, alwaysAllow: readonly string[]): CommandDecision {
  const analysis = analyzeCommand(command);
  if (analysis.parts.length === 0) return { allowed: false, uncovered: [], reason: 'the command is empty' };
  if (analysis.mustAsk) return { allowed: false, uncovered: analysis.parts, reason: `the command ${analysis.mustAsk}` };
  const prefixes = commandPrefixes(alwaysAllow);
  const uncovered = analysis.parts.filter((part) => !prefixes.some((prefix) => startsWithWords(part, prefix)));
  if (uncovered.length === 0) return { allowed: true, uncovered, reason: undefined };
  const chained = analysis.parts.length > 1 ? ` (a chain of ${analysis.parts.length} commands; each must be allowed)` : '';
  return { allowed: false, uncovered, reason: `not allowed: ${uncovered.join(', ')}${chained}` };
}

/**
 * The prefix the card offers for always-allow: the program, with its
 * subcommand for tools that have them (and what a `run`/`exec` runs); the
 * whole command where a shorter prefix would allow far more than was asked
 * (`bash -c …`, `rm -rf build`, `npm --version`). Undefined for a chain or
 * an unreadable command.
 */
export function suggestedPrefix(command: string): string | undefined {
  const analysis = analyzeCommand(command);
  if (analysis.mustAsk || analysis.parts.length !== 1) return undefined;
  const whole = normalize(analysis.parts[0]!);
  const words = whole.split(' ');
  const program = words[0]!;
  if (/^\w+=/.test(program) || /[`$'"\\*?]/.test(program)) return undefined;
  const plain = (word: string | undefined): word is string => word !== undefined && /^[\w:.@/-]+$/.test(word) && !word.startsWith('-');
  if (WHOLE_COMMAND_PROGRAMS.has(program.split('/').at(-1)!)) return whole;
  if (!SUBCOMMAND_TOOLS.has(program)) return program;
  const [, subcommand, target] = words;
  if (!plain(subcommand)) return whole;
  if (!RUNNER_SUBCOMMANDS.has(subcommand)) return `${program} ${subcommand}`;
  return plain(target) ? `${program} ${subcommand} ${target}` : whole;
}

/** The alwaysAllow entry for a prefix: `run_command:<prefix>`. */
export function alwaysAllowKeyFor(prefix: string): string {
  return `${COMMAND_PREFIX_KEY}${normalize(prefix)}`;
}

function startsWithWords(part: string, prefix: string): boolean {
  return part === prefix || part.startsWith(`${prefix} `);
}

function normalize(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
