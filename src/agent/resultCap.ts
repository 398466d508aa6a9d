// Caps a tool result before it enters the model's context: a 5 MB file must
// not become a 5 MB request. The head and the tail are kept (the start says
// what it is, the end often holds the summary or the error), with a note in
// the middle saying how much is missing there. That cut is a safety net for
// tools that do not page their own output (MCP, run_command): the workspace
// tools fill at most TOOL_PAGE_CHARS, so their own "lines A-B" and "first K"
// notes stay true.

/** Characters of one tool result the model sees at most (about 8k tokens). */
export const RESULT_CAP_CHARS = 32_000;

/**
 * Characters a tool that pages its own output (read_file, search_text,
 * list_dir, find_files) returns at most, header and notes included. The
 * margin under RESULT_CAP_CHARS leaves room for a note added later.
 */
export const TOOL_PAGE_CHARS = RESULT_CAP_CHARS - 1_000;

/**
 * Characters of one tool result that travel in its event (to the panel, to
 * AG-UI clients, to the log): far more than the model reads, but a 10 MB
 * output does not become a 10 MB message or DOM node.
 */
export const EVENT_RESULT_CAP_CHARS = 100_000;

/** Results longer than this are not kept in the session cache: running the tool again is cheaper than holding them. */
export const CACHEABLE_RESULT_CHARS = 1_000_000;

/** A short preview for log lines. */
export function logPreview(text: string, limit = 2_000): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} [… ${text.length - limit} more characters]`;
}

/**
 * `text` cut to its head and its last quarter when longer than `limit`. The
 * note names no tool: it also cuts MCP and command output, messages and
 * findings, where no read_file call gets the missing part back.
 */
export function capResult(text: string, limit = RESULT_CAP_CHARS): string {
  if (text.length <= limit) return text;
  const tailLength = Math.floor(limit / 4);
  const headLength = limit - tailLength;
  const left = text.length - headLength - tailLength;
  return `${text.slice(0, headLength)}\n\n[... ${left} characters left out here; only the start and the end of this text are shown ...]\n\n${text.slice(text.length - tailLength)}`;
}

/**
 * How many of `items` fit in a page of `budget` characters, each on its own
 * line after `fixedChars` characters of header and notes: a paged listing
 * stops before the entry that would not fit, rather than being cut by capResult.
 */
export function itemsThatFit(items: readonly string[], fixedChars: number, budget = TOOL_PAGE_CHARS): number {
  let used = fixedChars;
  for (const [index, item] of items.entries()) {
    used += 1 + item.length;
    if (used > budget) return index;
  }
  return items.length;
}

/**
 * A listing that fits one page: the header, then as many entries as fit, then
 * the overflow note when some were left out (and how many are shown). `header` gets how many are shown
 * when that is fewer than `total`; both are measured at their longest first
 * (the numbers of the page actually shown have no more digits).
 */
export function fittedListing(
  entries: readonly string[],
  total: number,
  header: (shownCount: number | undefined) => string,
  overflow: (shownCount: number) => string,
): { readonly text: string; readonly shown: number } {
  const shown = itemsThatFit(entries, header(entries.length).length + overflow(0).length);
  let text = [header(shown < total ? shown : undefined), ...entries.slice(0, shown)].join('\n');
  if (shown < entries.length) text += overflow(shown);
  return { text, shown };
}
