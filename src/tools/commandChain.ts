// Splits a shell command line into the commands it would run, so an
// "always allow commands starting with …" rule covers a chain only when it
// covers every part. Deliberately conservative: whatever this parser cannot
// read with certainty (an open quote, a heredoc, a redirection to a file)
// makes the command ask.

export interface CommandAnalysis {
  /** Each simple command, whitespace-normalised, including those inside `$(…)`, `<(…)` and backticks. */
  readonly parts: readonly string[];
  /** Why the command must ask whatever the allow list says; undefined when the parts alone decide. */
  readonly mustAsk: string | undefined;
}

const SEPARATORS = ['&&', '||', ';;', ';', '|&', '|', '&', '\n'];

export function analyzeCommand(command: string): CommandAnalysis {
  const parts: string[] = [];
  const reasons: string[] = [];
  collect(command, parts, reasons);
  return { parts: parts.filter(Boolean), mustAsk: reasons[0] };
}

/** Reads one command line; pushes its parts and reasons to ask. Returns the index after a closing `)` when `nested`. */
function collect(text: string, parts: string[], reasons: string[], start = 0, nested = false): number {
  let current = '';
  let index = start;
  const flush = () => {
    parts.push(current.trim().replace(/\s+/g, ' '));
    current = '';
  };
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\') {
      if (index + 1 >= text.length) reasons.push('ends with a backslash');
      current += text.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === '$' && (text[index + 1] === "'" || text[index + 1] === '"')) {
      // $'…' (where \' does not end the quote) and $"…": read otherwise than plain quotes, so not read here.
      reasons.push(`uses $${text[index + 1]}…${text[index + 1]} quoting`);
    }
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) {
        reasons.push('has an unclosed quote');
        current += text.slice(index);
        break;
      }
      // fish reads \' inside single quotes as a quote, and the quote goes on where bash and sh end it.
      if (text[end - 1] === '\\') reasons.push("has \\' inside single quotes");
      current += text.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    if (char === '"') {
      index = doubleQuoted(text, index, parts, reasons, (piece) => (current += piece));
      continue;
    }
    if (char === '`') {
      index = backticks(text, index, parts, reasons);
      current += '`…`';
      continue;
    }
    if ((char === '$' || char === '<' || char === '>') && text[index + 1] === '(') {
      index = collect(text, parts, reasons, index + 2, true);
      current += '$(…)';
      continue;
    }
    if (nested && char === ')') {
      flush();
      return index + 1;
    }
    if (char === '(' || char === ')' || char === '{' || char === '}') {
      // Subshells and groups: their commands are split like any other.
      flush();
      index++;
      continue;
    }
    if (char === '#' && /^\s?$/.test(text[index - 1] ?? '')) {
      // After an escaped space (`x\ #`) the # is part of a word, not a comment: what follows would run.
      if (index >= 2 && text[index - 2] === '\\') {
        reasons.push('has a # after an escaped space');
        current += char;
        index++;
        continue;
      }
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
      continue;
    }
    const redirection = redirectionAt(text, index);
    if (redirection) {
      if (!redirection.harmless) reasons.push(`redirects to or from a file (${redirection.text.trim()})`);
      current += ` ${redirection.text.trim()} `;
      index += redirection.text.length;
      continue;
    }
    const separator = SEPARATORS.find((candidate) => text.startsWith(candidate, index));
    if (separator) {
      flush();
      index += separator.length;
      continue;
    }
    current += char;
    index++;
  }
  if (nested) reasons.push('has an unclosed $(');
  flush();
  return index;
}

function doubleQuoted(text: string, start: number, parts: string[], reasons: string[], append: (piece: string) => void): number {
  let index = start + 1;
  let piece = '"';
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\') {
      piece += text.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === '"') {
      append(`${piece}"`);
      return index + 1;
    }
    if (char === '`') {
      index = backticks(text, index, parts, reasons);
      piece += '`…`';
      continue;
    }
    if (char === '$' && text[index + 1] === '(') {
      index = collect(text, parts, reasons, index + 2, true);
      piece += '$(…)';
      continue;
    }
    piece += char;
    index++;
  }
  reasons.push('has an unclosed quote');
  append(piece);
  return index;
}

function backticks(text: string, start: number, parts: string[], reasons: string[]): number {
  let end = start + 1;
  while (end < text.length && text[end] !== '`') end += text[end] === '\\' ? 2 : 1;
  if (end >= text.length) {
    reasons.push('has an unclosed backtick');
    collect(text.slice(start + 1), parts, reasons);
    return text.length;
  }
  collect(text.slice(start + 1, end), parts, reasons);
  return end + 1;
}

/** A redirection operator with its target; `harmless` for fd duplication and /dev/null. */
function redirectionAt(text: string, index: number): { text: string; harmless: boolean } | undefined {
  const previous = text[index - 1] ?? ' ';
  // A digit before `>` belongs to the operator only at a word start (`2>`), not inside a word (`a2>`).
  const match = /^(?:\d*|&)(?:>>|>\||<<<|<<-?|<>|>&|<&|>|<)[ \t]*(?:"[^"]*"|'[^']*'|[^\s;&|()<>]*)/.exec(text.slice(index));
  if (!match || !/[\s;&|(]/.test(previous) && index > 0 && /\d/.test(text[index]!)) return undefined;
  const operator = /(>>|>\||<<<|<<-?|<>|>&|<&|>|<)/.exec(match[0])![1]!;
  const target = match[0].slice(match[0].indexOf(operator) + operator.length).trim();
  if (operator.startsWith('<<') && operator !== '<<<') return { text: match[0], harmless: false };
  const harmless = ((operator === '>&' || operator === '<&') && /^(\d|-)$/.test(target)) || target === '/dev/null';
  return { text: match[0], harmless };
}
