// Fuzzy matching for pickers (the prompt box's `@` list): the typed letters
// must appear in order; a match scores higher when the letters are adjacent,
// start a path segment or word, and fall in the file's own name. Pure.

/** A score for `candidate` (higher is better), or undefined when the letters of `query` are not all in it, in order. */
export function fuzzyScore(query: string, candidate: string): number | undefined {
  const needle = query.toLowerCase().replace(/\s+/gu, '');
  if (needle === '') return 0;
  const haystack = candidate.toLowerCase();
  const baseStart = candidate.replace(/\/+$/u, '').lastIndexOf('/') + 1;
  const anywhere = matchFrom(needle, candidate, haystack, 0);
  if (anywhere === undefined) return undefined;
  // Greedy matching takes the first letter it sees ('r' of "src" for "readme"):
  // also try from each word start of the first letter; letters inside the file's own name count more.
  let score = anywhere;
  for (let start = haystack.indexOf(needle[0]!); start >= 0; start = haystack.indexOf(needle[0]!, start + 1)) {
    if (!isWordStart(candidate, start)) continue;
    const here = matchFrom(needle, candidate, haystack, start);
    if (here !== undefined) score = Math.max(score, here + (start >= baseStart ? 10 : 0));
  }
  const name = haystack.slice(baseStart).replace(/\/+$/u, '');
  if (name === needle) score += 40;
  else if (name.startsWith(needle)) score += 25;
  else if (haystack.includes(needle)) score += 15;
  // Between equals, the shorter (shallower) path first.
  return score - candidate.length / 100;
}

function matchFrom(needle: string, original: string, haystack: string, start: number): number | undefined {
  let score = 0;
  let position = start;
  let previous = -2;
  for (const letter of needle) {
    const found = haystack.indexOf(letter, position);
    if (found < 0) return undefined;
    score += 1;
    if (found === previous + 1) score += 5;
    if (isWordStart(original, found)) score += 8;
    previous = found;
    position = found + 1;
  }
  return score;
}

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1] ?? '';
  const here = text[index] ?? '';
  return /[/\\._\- ]/u.test(before) || (/[a-z0-9]/u.test(before) && /[A-Z]/u.test(here));
}

/** The items that match, best first (ties keep their order), at most `limit`. */
export function fuzzyFilter<T>(items: readonly T[], query: string, key: (item: T) => string, limit: number): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const score = fuzzyScore(query, key(item));
    if (score !== undefined) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((entry) => entry.item);
}
