// Counts the tokens of a request before it is sent, so the loop can tell
// whether it fits the model's window. OpenAI's models are counted with their
// own encoding (gpt-tokenizer: o200k_base, cl100k_base for gpt-4 and
// gpt-3.5); any other model is counted with o200k_base and the count is
// labelled an estimate, since its real tokenizer is unknown here.
//
// Cost: the tokenizer's tables take ~300 ms to load and ~2 ms per 17 kB to
// run, so it is loaded on first need (never at activation), every message's
// count is cached by object, and `upperBound` answers the common case — a
// request far from the window — from byte lengths without tokenizing at all.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { headEnd } from '../common/surrogatePairs';
import { imageTokens, imageTokensBound } from './chatImages';
import { rememberedFallbacks } from './requestFallbacks';
import type { ChatMessage, ModelSettings, ToolSchema } from './chatModel';

export type EncodingName = 'o200k_base' | 'cl100k_base';

export interface TokenCount {
  readonly tokens: number;
  /** True unless the model is OpenAI's and its own encoding counted it. */
  readonly estimated: boolean;
  readonly encoding: EncodingName;
}

export interface CountedRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSchema[] | undefined;
}

/** Per message: role markers and separators of the chat format (OpenAI's is 3; templates of other servers add a few more). */
const MESSAGE_OVERHEAD = 4;
/** The reply's priming tokens. */
const REQUEST_OVERHEAD = 3;
/** The byte bound's allowance per message for a chat template's special tokens. */
const BOUND_MESSAGE_OVERHEAD = 8;

/** Which encoding counts `model`, and whether that count is exact (OpenAI's host or an OpenAI model name). */
export function encodingFor(settings: Pick<ModelSettings, 'baseUrl' | 'model'>): { readonly encoding: EncodingName; readonly exact: boolean } {
  const name = settings.model.toLowerCase().replace(/^openai\//, '');
  const openAiName = /^(gpt-|chatgpt-|o\d)/.test(name);
  const legacy = /^gpt-(4(?!o|\.)|3\.5)/.test(name);
  return { encoding: legacy ? 'cl100k_base' : 'o200k_base', exact: openAiName || isOpenAiHost(settings.baseUrl) };
}

function isOpenAiHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

type Counter = (text: string) => number;

const loading = new Map<EncodingName, Promise<Counter>>();

/**
 * The encoding's counter, loaded once. The packaged extension ships each
 * encoding as its own bundle beside this one (dist/tokenizer-<name>.js, see
 * esbuild.mjs) so host.js stays small; unbundled (tests, tsx) the package is
 * required directly.
 */
export function loadCounter(encoding: EncodingName): Promise<Counter> {
  let pending = loading.get(encoding);
  if (!pending) {
    pending = new Promise<Counter>((resolve) => {
      const bundled = path.join(__dirname, `tokenizer-${encoding}.js`);
      // A computed specifier: esbuild must not pull the tables into the bundle that contains this file.
      const specifier = existsSync(bundled) ? bundled : ['gpt-tokenizer', 'encoding', encoding].join('/');
      const module = require(specifier) as { countTokens(text: string): number };
      resolve((text) => countInSlices(text, (slice) => module.countTokens(slice)));
    });
    loading.set(encoding, pending);
  }
  return pending;
}

/** The longest text counted in one call; longer text is counted a slice at a time. */
export const COUNT_SLICE_CHARS = 1_000;
/** How far back from a slice's end a whitespace is looked for, to cut between words. */
const SLICE_LOOKBACK = 200;

/**
 * Counts long text a slice at a time. The encoder's merge work grows with the
 * square of a word's length, and one "word" can be huge (a minified line, a
 * run of dashes or base64): 100,000 letters took 7.8 s in one call and 0.3 s
 * in slices of 1,000, with a count 0.03% higher (a word cut in two at a
 * slice's end costs a token more), and an agent host that stalls for seconds
 * stalls every other run with it. Slices end at whitespace when there is one
 * near, so ordinary text counts as it would whole, and never inside a
 * surrogate pair.
 */
export function countInSlices(text: string, count: (slice: string) => number, sliceChars = COUNT_SLICE_CHARS): number {
  if (text.length <= sliceChars) return count(text);
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + sliceChars, text.length);
    if (end < text.length) {
      const space = text.slice(end - SLICE_LOOKBACK, end).search(/\s\S*$/);
      // The cut goes before the whitespace: the encoder joins a space to the word after it.
      if (space > 0) end = end - SLICE_LOOKBACK + space;
      end = headEnd(text, end);
    }
    total += count(text.slice(start, end));
    start = end;
  }
  return total;
}

/** Counts requests for one model, remembering each message's count (messages are immutable values). */
export class RequestTokenCounter {
  readonly encoding: EncodingName;
  readonly exact: boolean;
  private readonly counts = new WeakMap<object, number>();
  private readonly bytes = new WeakMap<object, number>();

  constructor(private readonly settings: Pick<ModelSettings, 'baseUrl' | 'model' | 'provider'>) {
    const { encoding, exact } = encodingFor(settings);
    this.encoding = encoding;
    this.exact = exact;
  }

  /** Images cost only a model that is sent them: not VS Code's here, nor one that refused them. */
  private imagesSent(): boolean {
    return this.settings.provider !== 'vscode' && !rememberedFallbacks(this.settings.baseUrl, this.settings.model).has('noImages');
  }

  /** A message's cost, remembered; a message with images is not (whether they are sent can change mid-run). */
  private messageCost(cache: WeakMap<object, number>, message: ChatMessage, text: () => number, image: (data: string) => number): number {
    if (message.role !== 'user' || !message.images?.length) return this.cached(cache, message, text);
    return this.cached(cache, message, text) + (this.imagesSent() ? imagesCost(message, image) : 0);
  }

  /**
   * A bound no tokenizer exceeds: byte-level BPE and SentencePiece with byte
   * fallback spend at least one byte per token, plus the template's markers.
   * Cheap (cached byte lengths), so it runs before every request.
   */
  upperBound(request: CountedRequest): number {
    let total = REQUEST_OVERHEAD;
    for (const message of request.messages) total += this.messageCost(this.bytes, message, () => Buffer.byteLength(messageText(message)) + BOUND_MESSAGE_OVERHEAD, imageTokensBound);
    if (request.tools?.length) total += this.cached(this.bytes, request.tools, () => Buffer.byteLength(JSON.stringify(request.tools)));
    return total;
  }

  /** The request's tokens by this model's encoding (an estimate unless `exact`). */
  async count(request: CountedRequest): Promise<TokenCount> {
    const counter = await loadCounter(this.encoding);
    let total = REQUEST_OVERHEAD;
    for (const message of request.messages) total += this.messageCost(this.counts, message, () => counter(messageText(message)) + MESSAGE_OVERHEAD, imageTokens);
    // Tool schemas: their JSON, which is close to (a little above) what OpenAI's internal rendering costs.
    if (request.tools?.length) total += this.cached(this.counts, request.tools, () => counter(JSON.stringify(request.tools)));
    return { tokens: total, estimated: !this.exact, encoding: this.encoding };
  }

  private cached(cache: WeakMap<object, number>, key: object, compute: () => number): number {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute();
      cache.set(key, value);
    }
    return value;
  }
}

/** Images are counted by their size, as the model reads them (an estimate when the size cannot be read). */
function imagesCost(message: ChatMessage, cost: (data: string) => number): number {
  return message.role === 'user' && message.images ? message.images.reduce((sum, image) => sum + cost(image.data), 0) : 0;
}

/** What of a message the model reads: its text, and a tool call's name and arguments. */
function messageText(message: ChatMessage): string {
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return (message.content ?? '') + message.toolCalls.map((call) => `${call.name}${call.arguments}`).join('');
  }
  return message.content ?? '';
}
