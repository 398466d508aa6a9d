// The front matter of a repository's Markdown (prompt files, scoped
// instructions): the few keys Tandem reads, each a one-line scalar or a list.
// Not the whole YAML grammar: a parser for it would add about 250 KB to the
// host's bundle (measured with `yaml`, 8 %) to read three keys.

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The text between the opening `---` and the closing one (undefined without one), and the rest. */
export function splitFrontMatter(text: string): { readonly frontMatter: string | undefined; readonly body: string } {
  const match = FRONT_MATTER.exec(text);
  return match ? { frontMatter: match[1] ?? '', body: text.slice(match[0].length) } : { frontMatter: undefined, body: text };
}

/** What follows `key:` on its own line at the top level, or undefined. */
export function frontMatterLine(frontMatter: string, key: string): string | undefined {
  for (const line of frontMatter.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trimEnd() === key) return line.slice(colon + 1).trim();
  }
  return undefined;
}

/** `key: value` as a string (quotes taken off); undefined when absent, empty or a list. */
export function frontMatterScalar(frontMatter: string, key: string): string | undefined {
  const raw = frontMatterLine(frontMatter, key);
  if (raw === undefined || raw.startsWith('[')) return undefined;
  return scalar(raw)?.trim() || undefined;
}

/**
 * `key:` as a list: `[a, 'b']`, one comma-separated line, or the `- item`
 * lines under it. Undefined when the key is absent.
 */
export function frontMatterList(frontMatter: string, key: string): string[] | undefined {
  const lines = frontMatter.split(/\r?\n/);
  const at = lines.findIndex((line) => {
    const colon = line.indexOf(':');
    return colon > 0 && line.slice(0, colon).trimEnd() === key;
  });
  if (at < 0) return undefined;
  const raw = lines[at]!.slice(lines[at]!.indexOf(':') + 1).trim();
  if (raw === '') {
    const items: string[] = [];
    for (const line of lines.slice(at + 1)) {
      const item = /^\s+-\s+(.*)$/.exec(line);
      if (!item) break;
      const value = scalar(item[1] ?? '')?.trim();
      if (value) items.push(value);
    }
    return items;
  }
  const inner = raw.startsWith('[') ? raw.slice(1, raw.endsWith(']') ? -1 : undefined) : raw;
  return topLevelParts(inner)
    .map((part) => scalar(part)?.trim())
    .filter((part): part is string => part !== undefined && part !== '');
}

/** Splits at the commas outside quotes and braces: a brace list (`{ts,tsx}`) stays in its glob. */
export function topLevelParts(text: string): string[] {
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
export function scalar(raw: string): string | undefined {
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
