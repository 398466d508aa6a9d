// Copilot's scoped instruction files (`.github/instructions/*.instructions.md`):
// Markdown with a front matter whose `applyTo` lists, comma-separated, the
// globs of the files it is for (workspace-relative). One for `**` applies to
// every run, like AGENTS.md; one for `src/api/**/*.ts` joins when the run
// reads or edits such a file; one without `applyTo` is only ever attached by
// hand in Copilot, so Tandem leaves it out too.
import { minimatch } from 'minimatch';

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

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseInstructionsFile(text: string): InstructionsFile {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { applyTo: undefined, body: text };
  const body = text.slice(match[0].length);
  // Only `applyTo` is read, on its own line: a scalar, or a list written `[a, b]`.
  // The whole YAML grammar (a parser near the size of the rest of the host) is
  // not needed for it.
  const line = /^applyTo[ \t]*:[ \t]*(.*)$/m.exec(match[1] ?? '');
  const raw = (line?.[1] ?? '').trim();
  const values = raw.startsWith('[') ? topLevelParts(raw.slice(1, raw.endsWith(']') ? -1 : undefined)).map(scalar) : [scalar(raw)];
  const globs = values
    .flatMap((value) => topLevelParts(value ?? ''))
    .map((glob) => glob.trim().replace(/^\.?\//, ''))
    .filter((glob) => glob !== '');
  return { applyTo: globs.length > 0 ? globs : undefined, body };
}

// Splits at the commas outside quotes and braces: a brace list (`{ts,tsx}`) stays in its glob.
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  let braces = 0;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{') braces++;
    else if (char === '}') braces = Math.max(0, braces - 1);
    else if (char === ',' && braces === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

/** A YAML scalar written on one line: single- or double-quoted, or plain (a ` #` comment ends it). */
function scalar(raw: string): string | undefined {
  const text = raw.trim();
  if (text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text.slice(0, text.lastIndexOf('"') + 1));
      return typeof parsed === 'string' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith("'")) {
    const end = text.lastIndexOf("'");
    return end > 0 ? text.slice(1, end).replace(/''/g, "'") : undefined;
  }
  return text.replace(/\s+#.*$/, '');
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
