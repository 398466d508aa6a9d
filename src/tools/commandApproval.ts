// Whether `tandem.tools.alwaysAllow` lets a run_command call run unasked, and
// the prefix the approval card offers ("Always allow commands starting with …").
import * as path from 'node:path';
import { analyzeCommand } from './commandChain';
import { riskyArgument } from './commandOptions';

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
  // Shell builtins and wrappers that run what follows them, or a file's commands.
  '.', 'source', 'command', 'builtin', 'setsid', 'stdbuf', 'unbuffer', 'script', 'flock', 'ionice', 'taskset', 'chroot',
  'su', 'runuser', 'pkexec', 'systemd-run', 'at', 'batch', 'parallel', 'busybox', 'strace', 'ltrace', 'gdb', 'tsx', 'ts-node',
  'java', 'lua', 'Rscript', 'osascript', 'cmd', 'cmd.exe', 'powershell.exe',
  // Programs one of whose options runs a command or writes anywhere (tar --to-command, tee).
  'tar', 'tee', 'ln', 'install', 'truncate', 'shred', 'rsync', 'scp', 'nc', 'ncat', 'socat',
  // Runners of packages and environments, editors and pagers that can start a shell.
  'cross-env', 'bunx', 'pnpx', 'pipx', 'conda', 'xcrun', 'valgrind', 'unshare', 'sg', 'vi', 'vim', 'nvim', 'emacs', 'less', 'more', 'man',
]);

/** Subcommands that run code given to them or change what later commands run (`git config core.pager`). */
const WHOLE_COMMAND_SUBCOMMANDS = new Set(['config', 'eval', 'repl', 'shell']);

/**
 * Files that say what a program runs (its scripts, targets or build steps).
 * "Always allow npm test" was consent to the test script as it was: once a run
 * has rewritten package.json, `npm test` may run anything.
 */
const DEFINITION_FILES: Readonly<Record<string, readonly string[]>> = {
  npm: ['package.json', '.npmrc'],
  npx: ['package.json', '.npmrc'],
  pnpm: ['package.json', 'pnpm-workspace.yaml', '.npmrc'],
  yarn: ['package.json', '.yarnrc', '.yarnrc.yml'],
  bun: ['package.json', 'bunfig.toml'],
  deno: ['deno.json', 'deno.jsonc'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  just: ['justfile', 'Justfile', '.justfile'],
  task: ['Taskfile.yml', 'Taskfile.yaml'],
  cargo: ['Cargo.toml', 'build.rs'],
  go: ['go.mod'],
  gradle: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  mvn: ['pom.xml'],
  mvnw: ['pom.xml'],
  gradlew: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  bunx: ['package.json', 'bunfig.toml'],
  pnpx: ['package.json', '.npmrc'],
  yarnpkg: ['package.json', '.yarnrc', '.yarnrc.yml'],
  corepack: ['package.json'],
  uv: ['pyproject.toml'],
  poetry: ['pyproject.toml'],
  pip: ['pyproject.toml', 'setup.py'],
  dotnet: ['Directory.Build.props', 'Directory.Build.targets'],
};

/** The files among `changed` (absolute paths) that say what one of the command's programs runs, by name. */
export function changedDefinitions(command: string, changed: readonly string[]): string[] {
  if (changed.length === 0) return [];
  // Every word, not only the first: `timeout 60 npm test` and `CI=1 npm test` run npm too (asking once too often is the safe side).
  const programs = analyzeCommand(command).parts.flatMap((part) => part.split(' ').map((word) => word.split('/').at(-1)!));
  const names = new Set(programs.flatMap((program) => DEFINITION_FILES[program] ?? []));
  const hits = changed.map((file) => path.basename(file)).filter((name) => names.has(name) || (/\.(cs|fs|vb)proj$/.test(name) && programs.includes('dotnet')));
  return [...new Set(hits)];
}

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
  const risky: string[] = [];
  const uncovered = analysis.parts.filter((part) => {
    // The longest allowed prefix: an entry that names the whole command, options and all, covers it.
    const prefix = prefixes.filter((candidate) => startsWithWords(part, candidate)).sort((a, b) => b.length - a.length)[0];
    if (prefix === undefined) return true;
    const option = riskyArgument(prefix.split(' ')[0]!, part.slice(prefix.length));
    if (option !== undefined) risky.push(`${option} in "${part}" may run a program, load code, write a file or reach outside the folder, so it asks even after "${prefix}"`);
    return option !== undefined;
  });
  if (uncovered.length === 0) return { allowed: true, uncovered, reason: undefined };
  if (risky.length > 0) return { allowed: false, uncovered, reason: risky.join('; ') };
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
  // What a runner runs is judged as if it came first: `npx tsx`, `uv run python`, `yarn node` are interpreters.
  const runs = (word: string | undefined) => word !== undefined && (WHOLE_COMMAND_PROGRAMS.has(word.split('/').at(-1)!) || WHOLE_COMMAND_SUBCOMMANDS.has(word));
  if (!RUNNER_SUBCOMMANDS.has(subcommand)) return runs(subcommand) ? whole : `${program} ${subcommand}`;
  if (runs(target)) return whole;
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
