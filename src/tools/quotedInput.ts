// How a tool's reply quotes the model's own input back (a query, a glob, a
// path): enough to tell which, never the whole of a long one.

/** Characters of the model's own input (a query, a glob, a path) a reply quotes back: enough to tell which. */
const QUOTED_INPUT_CHARS = 200;

/** A query or glob quoted in a reply, a long one cut (the model has the whole; echoing it only spends its context). */
export function quotedInput(text: string, limit = QUOTED_INPUT_CHARS): string {
  if (text.length <= limit) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, limit)}…`)} (${text.length.toLocaleString('en-US')} characters)`;
}
