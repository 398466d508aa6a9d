// The include and exclude globs of a search as the model writes them: a list,
// or one string with commas between globs ('src/**, *.md'), each gitignore's
// syntax with braces ('*.{ts,tsx}'). Braces are expanded here because the
// gitignore matching both search engines share has none; what is left of a
// brace afterwards is escaped, so that ripgrep (which has braces) and the
// JavaScript engine (which has not) read it alike, as a character.

import { braceExpand } from 'minimatch';
import { quotedInput } from './quotedInput';

/** Most globs an include or exclude may expand to: beyond it the list is refused, not cut. */
export const MAX_GLOBS = 256;
/** Longest glob string taken. */
export const MAX_GLOB_CHARS = 4000;

export class GlobListError extends Error {}

export function globList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const given = typeof value === 'string' ? splitAtCommas(value) : [...value];
  const globs: string[] = [];
  for (const raw of given) {
    const glob = raw.trim();
    if (glob === '') continue;
    if (glob.length > MAX_GLOB_CHARS) throw new GlobListError(`A glob of ${glob.length} characters is longer than ${MAX_GLOB_CHARS}; use shorter globs.`);
    for (const expanded of expandBraces(glob, MAX_GLOBS - globs.length)) if (expanded !== '') globs.push(escapeBraces(expanded));
  }
  return globs;
}

/** Splits at commas outside braces, in one pass. */
function splitAtCommas(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    // An escaped comma is a character; braces group commas escaped or not (`weird\{a,b\}` is one glob).
    if (char === '\\' && text[at + 1] === ',') at += 1;
    else if (char === '{') depth += 1;
    else if (char === '}' && depth > 0) depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The glob's brace alternatives, refused before expanding when they could
 * come to more than `room` globs: every brace group's choices multiplied is
 * at least what the expansion makes. Not expanded (its braces then read as
 * characters): a glob with a backslash, since the expansion drops escapes and
 * so changes what the rest means, and one with a range ({1..9}), which names
 * no file pattern a search needs and can come to millions.
 */
function expandBraces(glob: string, room: number): string[] {
  if (!glob.includes('{') || glob.includes('\\') || /\{[^{}]*\.\.[^{}]*\}/u.test(glob)) return oneMore([glob], room, glob);
  let bound = 1;
  for (const group of braceGroups(glob)) {
    bound *= group;
    if (bound > room) throw tooMany(glob);
  }
  return oneMore(braceExpand(glob), room, glob);
}

/** How many choices each brace group offers (its commas at its own depth, plus one). */
function braceGroups(glob: string): number[] {
  const open: number[] = [];
  const groups: number[] = [];
  for (let at = 0; at < glob.length; at += 1) {
    const char = glob[at];
    if (char === '\\') at += 1;
    else if (char === '{') open.push(1);
    else if (char === ',' && open.length > 0) open[open.length - 1]! += 1;
    else if (char === '}' && open.length > 0) groups.push(open.pop()!);
  }
  return groups;
}

function oneMore(globs: string[], room: number, given: string): string[] {
  if (globs.length > room) throw tooMany(given);
  return globs;
}

function tooMany(glob: string): GlobListError {
  return new GlobListError(`The globs expand to more than ${MAX_GLOBS} (at ${quotedInput(glob)}); use fewer alternatives.`);
}

/** A brace left after expansion is a character in both engines. */
function escapeBraces(glob: string): string {
  return glob.replace(/\\.|[{}]/gu, (match) => (match.length === 2 ? match : `\\${match}`));
}
