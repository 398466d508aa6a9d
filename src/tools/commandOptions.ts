// Options that turn an allowed command into another one. "Always allow
// commands starting with `git log`" is meant for reading history, but
// `git log --output=~/.bashrc` writes a file, `git grep -O'sh -c …'` runs a
// program, `npm test --node-options=…` loads any code and `make test
// SHELL=…` swaps the shell: such an option asks, whatever the prefix allows.
// A list, so not complete: it covers the options known to run a program, load
// code or write a file named on the command line, for the tools an allow
// entry is most often made for.

/** Long options that name a program to run, code or configuration to load, or a file to write, in whatever tool. */
const RISKY_LONG_OPTIONS = new Set([
  '--checkpoint-action',
  '--config',
  '--config-env',
  '--config-file',
  '--directory',
  '--eval',
  '--exec',
  '--exec-path',
  '--experimental-loader',
  '--ext-diff',
  '--file',
  '--git-dir',
  '--global-setup',
  '--globalSetup',
  '--globalconfig',
  '--import',
  '--in-place',
  '--init-file',
  '--loader',
  '--makefile',
  '--manifest-path',
  '--modfile',
  '--node-options',
  '--open-files-in-pager',
  '--output',
  '--output-file',
  '--overlay',
  '--pager',
  '--pre',
  '--pre-glob',
  '--prefix',
  '--rcfile',
  '--receive-pack',
  '--require',
  '--rsh',
  '--script-shell',
  '--setup-files',
  '--setupFiles',
  '--template',
  '--textconv',
  '--to-command',
  '--toolexec',
  '--upload-pack',
  '--use-compress-program',
  '--userconfig',
  '--work-tree',
]);

/**
 * Per program: short options (`-X`, also inside a cluster such as `-rxo`),
 * single-dash long ones (`-exec`) and long ones of its own.
 */
const RISKY_PROGRAM_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-c', '-C', '-O', '-x', '-u', '--no-index'],
  make: ['-f', '-C', '-I', '-E'],
  gmake: ['-f', '-C', '-I', '-E'],
  npm: ['-c', '-C'],
  pnpm: ['-c', '-C'],
  yarn: ['-c', '-C'],
  npx: ['-c'],
  bun: ['-c', '-r'],
  go: ['-C', '-o', '-exec', '-toolexec', '-overlay', '-modfile', '-coverprofile', '-cpuprofile', '-memprofile', '-blockprofile', '-mutexprofile', '-trace', '-outputdir', '-pgo'],
  find: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  sort: ['-o', '-T'],
  sed: ['-i'],
  cargo: ['-Z'],
  pytest: ['-c', '-p', '--basetemp', '--junitxml', '--junit-xml', '--debug', '--pastebin', '--confcutdir', '--rootdir', '--result-log'],
  tar: ['-I', '-x'],
  curl: ['-o', '-O', '-K', '-T'],
  rsync: ['-e'],
};

/** Package managers: what follows a bare `--` goes to the script's own program (node, jest, vitest …), options unknown. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Short options that load code or write a file in the programs scripts usually run (`node -r`, `jest -c`). */
const SCRIPT_SHORT_OPTIONS = ['-r', '-c', '-e', '-p', '-o', '-C', '-i', '-f'];

/** Programs whose options are single-dash words (`go test -cover`, also `--cover`), not clusters of letters. */
const SINGLE_DASH_WORDS = new Set(['go', 'find']);

/** Programs where an argument with `=` sets a variable the tool runs with (`make test SHELL=…`, `X!=cmd`). */
const VARIABLE_PROGRAMS = new Set(['make', 'gmake']);

/** One shell word as the program receives it, and what the shell would do to it first. */
interface ShellWord {
  readonly raw: string;
  /** Without quotes and escapes. */
  readonly value: string;
  /** `$…`, a backtick or a brace outside single quotes: its text is not what the program gets. */
  readonly expands: boolean;
  /** `*`, `?` or `[` outside quotes: file names of the folder take its place. */
  readonly globs: boolean;
}

/** Splits what follows a prefix into words as a POSIX shell would, unquoting each. */
export function shellWords(text: string): ShellWord[] {
  const words: ShellWord[] = [];
  let raw = '';
  let value = '';
  let expands = false;
  let globs = false;
  let started = false;
  const end = () => {
    if (started) words.push({ raw, value, expands, globs });
    raw = value = '';
    expands = globs = started = false;
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (/\s/u.test(char)) {
      end();
      continue;
    }
    started = true;
    if (char === "'") {
      const close = text.indexOf("'", index + 1);
      const stop = close < 0 ? text.length : close;
      raw += text.slice(index, stop + 1);
      value += text.slice(index + 1, stop);
      index = stop;
    } else if (char === '"') {
      raw += char;
      for (index += 1; index < text.length && text[index] !== '"'; index += 1) {
        const inner = text[index]!;
        raw += inner;
        if (inner === '\\' && index + 1 < text.length && '$`"\\'.includes(text[index + 1]!)) {
          index += 1;
          raw += text[index]!;
          value += text[index]!;
          continue;
        }
        if (inner === '$' || inner === '`') expands = true;
        value += inner;
      }
      raw += '"';
    } else if (char === '\\') {
      raw += text.slice(index, index + 2);
      value += text[index + 1] ?? '';
      index += 1;
    } else {
      raw += char;
      value += char;
      if (char === '$' || char === '`' || char === '{' || (char === '~' && value === '~')) expands = true;
      if (char === '*' || char === '?' || char === '[') globs = true;
    }
  }
  end();
  return words;
}

/** A path that may lead out of the folder the command runs in: absolute, from home, a drive, or through `..`. */
function leavesFolder(value: string): boolean {
  return /^[/~]/u.test(value) || /^[A-Za-z]:[\\/]/u.test(value) || /(^|[\\/])\.\.([\\/]|$)/u.test(value);
}

/** Whether `option` (a `--name`, without `=value`) is one of `risky`, or a shortening of one (npm and make take `--ev` for `--eval`). */
function isLongRisky(option: string, risky: Iterable<string>): boolean {
  for (const each of risky) {
    if (!each.startsWith('--')) continue;
    if (each === option || (option.length >= 4 && each.startsWith(option))) return true;
  }
  return false;
}

/** Whether a single-dash `word` holds one of `risky`'s short options (`-O`, `-Osh`, `-ro`) or names a single-dash long one. */
function isShortRisky(word: string, risky: readonly string[], singleDashWords: boolean): boolean {
  const option = word.split('=')[0]!;
  return risky.some((each) => {
    if (each.startsWith('--')) return false;
    if (each.length > 2 || singleDashWords) return option === each;
    return word.startsWith(each) || (/^-[A-Za-z]+$/u.test(word) && word.includes(each[1]!));
  });
}

/**
 * Why the words following an allowed prefix of `program`'s command make it
 * another command (the word and the reason), or undefined.
 */
export function riskyArgument(program: string, text: string): string | undefined {
  const name = program.split('/').at(-1) ?? program;
  const own = RISKY_PROGRAM_OPTIONS[name] ?? [];
  const singleDash = SINGLE_DASH_WORDS.has(name);
  let afterDashes = false;
  let redirected = false;
  for (const word of shellWords(text)) {
    const { value, raw } = word;
    // The harmless redirections the chain parser lets through (`2>&1`, `> /dev/null`) are the shell's, not the program's.
    if (/^(\d*|&)>>?(&\d*)?$/u.test(value) || /^\d*<&\d*$/u.test(value)) {
      redirected = true;
      continue;
    }
    if (redirected && value === '/dev/null') {
      redirected = false;
      continue;
    }
    redirected = false;
    if (/^(\d*|&)>>?\/dev\/null$/u.test(value)) continue;
    if (word.expands) return `${raw} (the shell expands it first)`;
    if (word.globs) return `${raw} (the shell replaces it with file names)`;
    if (leavesFolder(value) || leavesFolder(value.slice(value.indexOf('=') + 1))) return `${raw} (a path outside the folder)`;
    if (value === '--') {
      afterDashes = true;
      continue;
    }
    const options = afterDashes && SCRIPT_RUNNERS.has(name) ? SCRIPT_SHORT_OPTIONS : own;
    if (value.startsWith('--')) {
      const option = value.split('=')[0]!;
      // Go reads `--o` as `-o`.
      const asSingle = singleDash || option.length === 3 ? `-${option.slice(2)}` : undefined;
      if (isLongRisky(option, RISKY_LONG_OPTIONS) || isLongRisky(option, options) || (asSingle !== undefined && isShortRisky(asSingle, options, singleDash))) return raw;
      continue;
    }
    if (value.startsWith('-') && value.length > 1) {
      if (isShortRisky(value, options, singleDash)) return raw;
      continue;
    }
    if (VARIABLE_PROGRAMS.has(name) && value.includes('=')) return `${raw} (sets a variable make runs with)`;
  }
  return undefined;
}
