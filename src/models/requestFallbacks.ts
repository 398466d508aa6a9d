// Servers that reject a part of an OpenAI request, and what to send instead.
// Each answer changes the request, so retrying is worth it at once (no wait):
//  - `stream_options` unknown to an older server: drop it (usage is then
//    estimated), and keep it dropped for that endpoint and model;
//  - `tools` refused for the model (Ollama: "... does not support tools"):
//    send no tools, so the loop's JSON envelope carries the calls, and keep
//    it so for that endpoint and model;
//  - the server failed to parse the model's own tool call (llama.cpp's and
//    Ollama's tool-call parsers): the same request would fail the same way,
//    so this once the envelope is used instead;
//  - a tool description over OpenAI's 1,024 characters (`string_above_max_length`
//    on `tools[N].function.description`; MCP servers often write longer ones):
//    shorten those descriptions;
//  - a reasoning model the name did not reveal (an Azure deployment, a proxy's
//    alias) refusing `max_tokens` ("Use 'max_completion_tokens' instead"):
//    send that instead; refusing a temperature other than its default
//    (OpenAI: "Only the default (1) value is supported", Kimi: "only 1 is
//    allowed"): send none;
//  - images refused by a model that takes only text (OpenAI: "image_url is
//    only supported by certain models", DeepSeek: "unknown variant
//    `image_url`", vLLM: "not a multimodal model", llama.cpp: "image input is
//    not supported"): send their descriptions only; a body too large with
//    them (413, a gateway's limit): this request without them.
// All but the envelope and the too-large body are kept for that endpoint and model.
import type { ModelFailure } from './modelFailure';

export type RequestFallback =
  | 'dropStreamOptions'
  | 'noNativeTools'
  | 'envelopeOnce'
  | 'shortToolDescriptions'
  | 'maxCompletionTokens'
  | 'defaultTemperature'
  | 'noImages'
  | 'imagesTooLarge';

/** OpenAI's limit on a function's description, in characters. */
export const TOOL_DESCRIPTION_LIMIT = 1024;

const TOOLS_UNSUPPORTED = /does not support tools|tools? (?:is|are) not supported|tool(?:s| use| calling) (?:is )?not supported|unsupported.*\btools\b/i;
const STREAM_OPTIONS = /stream_options/i;
// llama.cpp: "Failed to parse tool call ..." / Ollama: "error parsing tool call: raw='...', err=..."
const TOOL_CALL_PARSE = /(?:failed to parse|error parsing) tool call/i;
// OpenAI: "Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024, …"
const TOOL_DESCRIPTION_TOO_LONG = /tools\[\d+\]\.function\.description'?:? string too long/i;
// OpenAI: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
const MAX_TOKENS_REFUSED = /'?max_tokens'? is not supported.*max_completion_tokens/i;
// OpenAI: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
// / "Unsupported parameter: 'temperature' is not supported with this model." / Kimi: "invalid temperature: only 1 is allowed for this model"
const TEMPERATURE_REFUSED = /'?temperature'? (?:does not support|is not supported)|invalid temperature: only/i;

// Only looked for when the request holds images, and then only costs them.
const IMAGES_REFUSED =
  /image_url is only supported|unknown variant `?image_url|does not support (?:image|vision|multimodal)|not a multimodal model|image input is not supported|(?:images?|vision|multimodal)(?: inputs?)? (?:is|are) not supported|content must be a string|unsupported content (?:part )?type|missing data required for image input/i;

function text(failure: ModelFailure): string {
  const cause = failure.cause as { message?: unknown; error?: unknown } | undefined;
  return [failure.reason, typeof cause?.message === 'string' ? cause.message : '', JSON.stringify(cause?.error ?? '')].join(' ');
}

/** The request field an OpenAI error names (`param`) and why (`code`), if it says. */
function refusal(failure: ModelFailure): { param: string; code: string } {
  const cause = failure.cause as { param?: unknown; code?: unknown } | undefined;
  return { param: typeof cause?.param === 'string' ? cause.param : '', code: typeof cause?.code === 'string' ? cause.code : '' };
}

export interface RequestShape {
  readonly hasStreamOptions: boolean;
  readonly hasTools: boolean;
  /** A tool description over TOOL_DESCRIPTION_LIMIT is in the request (shortening would change something). */
  readonly hasLongToolDescription: boolean;
  readonly hasMaxTokens: boolean;
  readonly hasTemperature: boolean;
  readonly hasImages: boolean;
}

export function fallbackFor(failure: ModelFailure, request: RequestShape): RequestFallback | undefined {
  const message = text(failure);
  const { param, code } = refusal(failure);
  if (failure.status === 400 || failure.status === 422) {
    if (request.hasStreamOptions && STREAM_OPTIONS.test(message)) return 'dropStreamOptions';
    if (request.hasTools && TOOLS_UNSUPPORTED.test(message)) return 'noNativeTools';
    if (request.hasLongToolDescription && (/^tools\[\d+\]\.function\.description$/.test(param) || TOOL_DESCRIPTION_TOO_LONG.test(message))) return 'shortToolDescriptions';
    if (request.hasMaxTokens && MAX_TOKENS_REFUSED.test(message)) return 'maxCompletionTokens';
    // Not a value out of range (OpenAI: `decimal_above_max_value`): that one is the setting's to fix.
    if (request.hasTemperature && ((param === 'temperature' && code.startsWith('unsupported')) || TEMPERATURE_REFUSED.test(message))) return 'defaultTemperature';
  }
  // Any status: llama.cpp answers a text-only model's image with a 500.
  if (request.hasImages && failure.status !== undefined && failure.status >= 400 && IMAGES_REFUSED.test(message)) return 'noImages';
  // A body over a gateway's limit (nginx's default is 1 MB) with images attached: this request goes without them.
  if (request.hasImages && failure.status === 413) return 'imagesTooLarge';
  if (request.hasTools && TOOL_CALL_PARSE.test(message)) return 'envelopeOnce';
  return undefined;
}

/** Cut at a word where one is near, marked with an ellipsis, within `limit` characters. */
export function shortenedDescription(description: string, limit = TOOL_DESCRIPTION_LIMIT): string {
  if (description.length <= limit) return description;
  const room = description.slice(0, limit - 1);
  const lastSpace = room.search(/\s\S*$/);
  return `${(lastSpace > limit * 0.8 ? room.slice(0, lastSpace) : room).trimEnd()}…`;
}

export function fallbackReason(fallback: RequestFallback): string {
  switch (fallback) {
    case 'dropStreamOptions':
      return 'the server does not accept stream_options; asking again without it (token counts will be estimated)';
    case 'noNativeTools':
      return 'the model does not support native tool calls; using the JSON envelope from now on';
    case 'envelopeOnce':
      return "the server could not parse the model's tool call; asking again with the JSON envelope instead";
    case 'shortToolDescriptions':
      return `the server refuses tool descriptions over ${TOOL_DESCRIPTION_LIMIT.toLocaleString('en-US')} characters; asking again with the longer ones shortened`;
    case 'maxCompletionTokens':
      return "the model takes max_completion_tokens, not max_tokens (a reasoning model); asking again with it";
    case 'defaultTemperature':
      return "the model accepts only its default temperature; asking again without one (the temperature setting is not used for it)";
    case 'noImages':
      return 'the model does not take images; asking again with their descriptions only';
    case 'imagesTooLarge':
      return 'the server refused a request this large (HTTP 413); asking again without its images, which the results still describe';
  }
}

/** What an endpoint and model were found to refuse, for the rest of the session. */
const refused = new Map<string, Set<RequestFallback>>();

export function rememberedFallbacks(baseUrl: string, model: string): ReadonlySet<RequestFallback> {
  return refused.get(`${baseUrl}\n${model}`) ?? new Set();
}

export function rememberFallback(baseUrl: string, model: string, fallback: RequestFallback): void {
  if (fallback === 'envelopeOnce' || fallback === 'imagesTooLarge') return;
  const key = `${baseUrl}\n${model}`;
  refused.set(key, new Set([...(refused.get(key) ?? []), fallback]));
}
