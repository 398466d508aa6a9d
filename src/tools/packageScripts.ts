// What `npm test` or `pnpm run build` will really run: the package.json
// scripts behind a command, for the approval card. "Run `npm test`" says
// little when the repository (or this run) decides what the test script is.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { analyzeCommand } from './commandChain';

const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Subcommands that are scripts of their own name. */
const NAMED_SCRIPTS = new Set(['test', 't', 'start', 'stop', 'restart']);
const RUN_SUBCOMMANDS = new Set(['run', 'run-script', 'rum', 'urn']);
const SHOWN_CHARS = 300;
/** A package.json larger than this is not read for the card (a FIFO or /dev/zero by that name never is). */
const MANIFEST_MAX_BYTES = 1_000_000;

/**
 * Lines naming each package.json script a command runs, with its pre- and
 * post- scripts (npm runs those too), from the nearest package.json at or
 * above `cwd` within `root`; empty when the command runs no script or none is
 * found.
 */
export async function scriptsBehind(command: string, cwd: string, root: string): Promise<string[]> {
  const analysis = analyzeCommand(command);
  const names = analysis.parts.map(scriptName).filter((name): name is string => name !== undefined);
  if (names.length === 0) return [];
  const manifest = await nearestManifest(cwd, root);
  if (!manifest) return [];
  const lines: string[] = [];
  for (const name of names) {
    for (const each of [`pre${name}`, name, `post${name}`]) {
      const script = manifest.scripts[each];
      if (typeof script === 'string') lines.push(`${manifest.shown} "${each}": ${clip(script)}`);
    }
  }
  return lines;
}

/**
 * The script a part runs: `npm test` → test, `yarn run build` and `yarn build` → build. Undefined when
 * an option comes before the script's name (it may choose another package: `--prefix`, `-w`, `--filter`,
 * `-C`), since the card must not name a script that is not the one that runs.
 */
function scriptName(part: string): string | undefined {
  const words = part.split(' ');
  const program = words[0]!.split('/').at(-1)!;
  if (!SCRIPT_RUNNERS.has(program)) return undefined;
  const [subcommand, target] = words.slice(1);
  if (subcommand === undefined || subcommand.startsWith('-')) return undefined;
  // bun's own test runner, not a script.
  if (program === 'bun' && subcommand === 'test') return undefined;
  if (NAMED_SCRIPTS.has(subcommand)) return beforeOptions(words.slice(2)) ? (subcommand === 't' ? 'test' : subcommand) : undefined;
  if (RUN_SUBCOMMANDS.has(subcommand)) return target !== undefined && !target.startsWith('-') && beforeOptions(words.slice(3)) ? target : undefined;
  // `yarn build` and `pnpm build` run the script of that name when there is one.
  return (program === 'yarn' || program === 'pnpm') && beforeOptions(words.slice(2)) ? subcommand : undefined;
}

/** No package-choosing option follows (`--prefix x`, `-w x`): what follows `--` goes to the script itself. */
function beforeOptions(rest: readonly string[]): boolean {
  const end = rest.indexOf('--');
  const own = end === -1 ? rest : rest.slice(0, end);
  return !own.some((word) => /^(--prefix|--workspace|--workspaces|-w|--filter|-F|--dir|-C|--cwd|-r|--recursive|--global|-g)(=|$)/u.test(word));
}

async function nearestManifest(cwd: string, root: string): Promise<{ scripts: Record<string, unknown>; shown: string } | undefined> {
  for (let folder = cwd; ; folder = path.dirname(folder)) {
    const file = path.join(folder, 'package.json');
    const info = await stat(file).catch(() => undefined);
    // Something by that name that is not a plain, small file: the card names nothing rather than a package further up.
    if (info !== undefined && (!info.isFile() || info.size > MANIFEST_MAX_BYTES)) return undefined;
    const text = info === undefined ? undefined : await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as { scripts?: unknown };
        const scripts = parsed.scripts && typeof parsed.scripts === 'object' ? (parsed.scripts as Record<string, unknown>) : {};
        const relative = path.relative(root, file).split(path.sep).join('/');
        return { scripts, shown: relative || 'package.json' };
      } catch {
        return undefined;
      }
    }
    const parent = path.dirname(folder);
    if (parent === folder || path.relative(root, folder) === '' || path.relative(root, folder).startsWith('..')) return undefined;
  }
}

function clip(script: string): string {
  const line = script.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS - 1)}…` : line;
}
