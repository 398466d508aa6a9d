// Caps a tool result before it enters the model's context: a 5 MB file must
// not become a 5 MB request. The head and the tail are kept (the start says
// what it is, the end often holds the summary or the error), with a note in
// the middle telling the model how to get the rest.

/** Characters of one tool result the model sees at most (about 8k tokens). */
export const RESULT_CAP_CHARS = 32_000;

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

export function capResult(text: string, limit = RESULT_CAP_CHARS): string {
  if (text.length <= limit) return text;
  const tailLength = Math.floor(limit / 4);
  const headLength = limit - tailLength;
  const left = text.length - headLength - tailLength;
  return `${text.slice(0, headLength)}\n\n[... ${left} characters left out; read a range (e.g. read_file with startLine/endLine) for more ...]\n\n${text.slice(text.length - tailLength)}`;
}
