// Copilot's scoped instruction files (`.github/instructions/*.instructions.md`):
// Markdown with a front matter whose `applyTo` lists, comma-separated, the
// globs of the files it is for (workspace-relative). One for `**` applies to
// every run, like AGENTS.md; one for `src/api/**/*.ts` joins when the run
// reads or edits such a file; one without `applyTo` is only ever attached by
// hand in Copilot, so Tandem leaves it out too.
import { minimatch } from 'minimatch';
import { frontMatterLine, scalar, splitFrontMatter, topLevelParts } from './frontMatter';

export const INSTRUCTIONS_SUFFIX = '.instructions.md';

export interface InstructionsFile {
  /** The globs of `applyTo`; undefined when the file has none. */
  readonly applyTo: readonly string[] | undefined;
  /** The Markdown after the front matter: what the models read. */
  readonly body: string;
}

export function isInstructionsFile(relativePath: string): boolean {
  return relativePath.toLowerCase().endsWith(INSTRUCTIONS_SUFFIX);
}

export function parseInstructionsFile(text: string): InstructionsFile {
  const { frontMatter, body } = splitFrontMatter(text);
  if (frontMatter === undefined) return { applyTo: undefined, body: text };
  // Only `applyTo` is read, on its own line: a scalar, or a list written `[a, b]`.
  const raw = frontMatterLine(frontMatter, 'applyTo') ?? '';
  const values = raw.startsWith('[') ? topLevelParts(raw.slice(1, raw.endsWith(']') ? -1 : undefined)).map(scalar) : [scalar(raw)];
  const globs = values
    .flatMap((value) => topLevelParts(value ?? ''))
    .map((glob) => glob.trim().replace(/^\.?\//, ''))
    .filter((glob) => glob !== '');
  return { applyTo: globs.length > 0 ? globs : undefined, body };
}

/** `applyTo` covers every file: the instructions join at the start of every run. */
export function appliesToEverything(globs: readonly string[]): boolean {
  return globs.some((glob) => glob === '**' || glob === '**/*' || glob === '*');
}

/** Whether a workspace-relative path (with `/`) is one the instructions are for. */
export function appliesTo(globs: readonly string[], relativePath: string): boolean {
  // A glob without a slash (`*.py`) is taken for every such file, wherever it is.
  return globs.some((glob) => minimatch(relativePath, glob, { dot: true, matchBase: true, nocase: process.platform === 'win32' }));
}
