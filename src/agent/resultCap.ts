// Caps a tool result before it enters the model's context: a 5 MB file must
// not become a 5 MB request. The head and the tail are kept (the start says
// what it is, the end often holds the summary or the error), with a note in
// the middle telling the model how to get the rest.

/** Characters of one tool result the model sees at most (about 8k tokens). */
export const RESULT_CAP_CHARS = 32_000;

export function capResult(text: string, limit = RESULT_CAP_CHARS): string {
  if (text.length <= limit) return text;
  const tailLength = Math.floor(limit / 4);
  const headLength = limit - tailLength;
  const left = text.length - headLength - tailLength;
  return `${text.slice(0, headLength)}\n\n[... ${left} characters left out; read a range (e.g. read_file with startLine/endLine) for more ...]\n\n${text.slice(text.length - tailLength)}`;
}
