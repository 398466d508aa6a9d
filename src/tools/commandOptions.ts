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
 * Per program: short options (`-X`, also inside a cluster such as `-rxo`) and
 * single-dash long ones (`-exec`) of the same kind.
 */
const RISKY_SHORT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-c', '-C', '-O', '-x', '-u'],
  make: ['-f', '-C', '-I'],
  gmake: ['-f', '-C', '-I'],
  npm: ['-c', '-C'],
  pnpm: ['-c', '-C'],
  yarn: ['-c', '-C'],
  npx: ['-c'],
  bun: ['-c', '-r'],
  go: ['-C', '-o', '-exec', '-toolexec', '-overlay', '-modfile'],
  find: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  sort: ['-o', '-T'],
  sed: ['-i'],
  cargo: ['-Z'],
  pytest: ['-c', '-p'],
  tar: ['-I', '-x'],
  curl: ['-o', '-O', '-K', '-T'],
  rsync: ['-e'],
};

/** Programs whose options are single-dash words (`go test -cover`), not clusters of letters. */
const SINGLE_DASH_WORDS = new Set(['go', 'find']);

/** Programs where `NAME=value` after the command sets a variable the tool runs with (`make test SHELL=…`). */
const VARIABLE_PROGRAMS = new Set(['make', 'gmake']);

/**
 * The first of `words` (what follows an allowed prefix of `program`'s
 * command) that makes the command another one, or undefined.
 */
export function riskyArgument(program: string, words: readonly string[]): string | undefined {
  const name = program.split('/').at(-1) ?? program;
  const short = RISKY_SHORT_OPTIONS[name] ?? [];
  return words.find((raw) => {
    // Quotes do not change what the tool reads: `'--output=x'` is `--output=x`.
    const word = raw.replace(/^['"]+/u, '');
    if (word.startsWith('--')) return RISKY_LONG_OPTIONS.has(word.split('=')[0]!);
    if (word.startsWith('-') && word.length > 1) {
      const option = word.split('=')[0]!;
      return short.some((risky) => {
        if (risky.length > 2 || SINGLE_DASH_WORDS.has(name)) return option === risky;
        // `-O`, `-Osh` (a value attached), or a cluster of letters holding it (`-ro`).
        return word.startsWith(risky) || (/^-[A-Za-z]+$/u.test(word) && word.includes(risky[1]!));
      });
    }
    return VARIABLE_PROGRAMS.has(name) && /^[A-Za-z_][A-Za-z0-9_]*=/u.test(word);
  });
}
