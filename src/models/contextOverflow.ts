// Recognises a server saying the request does not fit the model's context
// window. Such a request is never retried as it is (it would fail the same
// way); the loop condenses the conversation and asks once more.
// The wordings, as the servers send them:
//   OpenAI     code `context_length_exceeded`: "This model's maximum context length is N tokens. However, your messages resulted in M tokens."
//   vLLM       "This model's maximum context length is N tokens. However, you requested M tokens (…)" / "… and your request has M input tokens"
//   llama.cpp  type `exceed_context_size_error`: "request (M tokens) exceeds the available context size (N tokens)"; older "the request exceeds the available context size, try increasing it"
//   Ollama     "the input length exceeds the context length"
//   VS Code language models (`vscode.lm`): GitHub Copilot Chat, and the providers built on VS Code's
//              provider sample, throw a plain Error "Message exceeds token limit." before sending
//   LM Studio  "Trying to keep the first M tokens when context the overflows. However, the model is loaded with context length of only N tokens, …"; older "Input length M exceeds context length N"
const OVERFLOW_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'string_above_max_length']);
const OVERFLOW_TEXT =
  /maximum context length|exceeds? the (?:available )?context (?:size|length|window)|input length (?:\d+ )?exceeds (?:the )?context length|context the overflows|when context overflows|reached context length|is too long and exceeds limit|context length exceeded|context window (?:is )?(?:full|exceeded)|prompt is too long|too many tokens in (?:the )?(?:prompt|request)|message exceeds token limit/i;

/** True when an error's code or text says the request is larger than the model's window. */
export function isContextOverflow(error: unknown): boolean {
  if (!error || typeof error !== 'object') return typeof error === 'string' && OVERFLOW_TEXT.test(error);
  const record = error as { code?: unknown; type?: unknown; message?: unknown; error?: unknown; param?: unknown };
  // OpenAI's `string_above_max_length` on a tool's description is about that description, not the window.
  if (typeof record.param === 'string' && record.param.startsWith('tools[')) return false;
  if (typeof record.code === 'string' && OVERFLOW_CODES.has(record.code)) return true;
  if (typeof record.type === 'string' && OVERFLOW_CODES.has(record.type)) return true;
  if (typeof record.message === 'string' && OVERFLOW_TEXT.test(record.message)) return true;
  if (typeof record.error === 'string') return OVERFLOW_TEXT.test(record.error);
  if (record.error && typeof record.error === 'object' && record.error !== error) return isContextOverflow(record.error);
  return false;
}
