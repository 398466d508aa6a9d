// Folds the chunks of one streamed chat completion into deltas for the
// consumer and the finished turn. Tolerant of what OpenAI-compatible servers
// really send: reasoning as `reasoning_content` (DeepSeek, vLLM) or
// `reasoning` (Ollama, OpenRouter), tool calls without an index or whose id
// arrives late, usage on the last chunk (or the first, or every one) or not
// at all, and reasoning written into the text between <think> tags
// (thinkTags.ts).

import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelDelta, ToolCall } from './chatModel';
import { ThinkTagSplitter, type SplitText } from './thinkTags';
import { uniqueToolCallId } from './toolCallIds';

interface PartialToolCall {
  /** The id the turn gives the call: the server's, unless an earlier call of the reply had it. */
  id: string | undefined;
  /** The id the server sent for the call. */
  wireId: string | undefined;
  name: string;
  arguments: string;
  started: boolean;
}

export interface WireUsage {
  readonly prompt_tokens?: number | null;
  readonly completion_tokens?: number | null;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
}

type LenientDelta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

type LenientToolCallDelta = Omit<ChatCompletionChunk.Choice.Delta.ToolCall, 'index'> & { index?: number };

/** Shared by every chunk that carries nothing; never mutated (see `append`). */
const NO_DELTAS: ModelDelta[] = [];

function append(deltas: ModelDelta[], delta: ModelDelta): ModelDelta[] {
  if (deltas === NO_DELTAS) return [delta];
  deltas.push(delta);
  return deltas;
}

export class StreamAccumulator {
  content = '';
  reasoning = '';
  finishReason: string | undefined;
  usage: WireUsage | undefined;
  private readonly calls: PartialToolCall[] = [];
  /** The slot in `calls` each wire index's latest call has: its own index unless that slot is taken (see acceptToolCall). */
  private readonly slots = new Map<number, number>();
  /** Characters of output (reasoning, text, tool names and arguments) received so far: a running count, not a join per chunk. */
  private outputCharacters = 0;
  /** `outputCharacters` when the last usage arrived. */
  private outputCharactersAtUsage = 0;
  /** Until the reply's text is known not to open with <think>, or the reasoning in it has closed. */
  private thinkTags: ThinkTagSplitter | undefined = new ThinkTagSplitter();

  /**
   * The deltas this chunk carries, in stream order. An array, not a
   * generator: this runs once per streamed chunk, and most chunks carry one
   * text delta, so no iterator object is made for them.
   */
  accept(chunk: ChatCompletionChunk): readonly ModelDelta[] {
    const deltas = this.acceptChoices(chunk.choices);
    if (chunk.usage) {
      this.usage = chunk.usage;
      // Noted after the chunk's own output: a server that sends usage with the last text counts that text in it.
      this.outputCharactersAtUsage = this.outputCharacters;
    }
    return deltas;
  }

  /**
   * Characters of output that streamed after the last usage the server sent,
   * so its completion count cannot include them (usage sent on the first
   * chunk, or on every chunk, by a stream that was then cut short).
   */
  get outputCharactersAfterUsage(): number {
    return this.outputCharacters - this.outputCharactersAtUsage;
  }

  private acceptChoices(choices: ChatCompletionChunk['choices'] | undefined): ModelDelta[] {
    if (!Array.isArray(choices) || choices.length === 0) return NO_DELTAS;
    let deltas: ModelDelta[] = NO_DELTAS;
    for (const choice of choices as (ChatCompletionChunk.Choice | null)[]) {
      if (!choice || typeof choice !== 'object' || (choice.index !== undefined && choice.index !== 0)) continue;
      const delta = (choice.delta ?? {}) as LenientDelta;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '') {
        this.outputCharacters += reasoning.length;
        deltas = this.acceptReasoning(reasoning, deltas);
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        // Counted as sent, before <think> splitting moves text between content and reasoning.
        this.outputCharacters += delta.content.length;
        if (this.thinkTags) deltas = this.acceptSplit(this.thinkTags.push(delta.content), deltas);
        else deltas = this.acceptText(delta.content, deltas);
      }
      const toolCalls = delta.tool_calls as LenientToolCallDelta[] | undefined;
      if (toolCalls) for (const callDelta of toolCalls) deltas = this.acceptToolCall(callDelta, deltas);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return deltas;
  }

  /** The stream ended: text held back while it might have been a <think> tag. */
  end(): readonly ModelDelta[] {
    const splitter = this.thinkTags;
    this.thinkTags = undefined;
    return splitter ? this.acceptSplit(splitter.end(), NO_DELTAS) : NO_DELTAS;
  }

  private acceptReasoning(reasoning: string, deltas: ModelDelta[]): ModelDelta[] {
    this.reasoning += reasoning;
    return append(deltas, { type: 'reasoning', delta: reasoning });
  }

  private acceptText(text: string, deltas: ModelDelta[]): ModelDelta[] {
    this.content += text;
    return append(deltas, { type: 'text', delta: text });
  }

  private acceptSplit(split: SplitText, deltas: ModelDelta[]): ModelDelta[] {
    if (this.thinkTags?.passesThrough) this.thinkTags = undefined;
    if (split.retractsText) {
      // The text so far was reasoning: it moves, and the consumer is told to move what it showed.
      this.content = '';
      this.reasoning += split.reasoning;
      deltas = append(deltas, { type: 'textWasReasoning', reasoning: this.reasoning });
    } else if (split.reasoning !== '') deltas = this.acceptReasoning(split.reasoning, deltas);
    if (split.text !== '') deltas = this.acceptText(split.text, deltas);
    return deltas;
  }

  private acceptToolCall(callDelta: LenientToolCallDelta, deltas: ModelDelta[]): ModelDelta[] {
    if (!callDelta || typeof callDelta !== 'object') return deltas;
    let index = callDelta.index === undefined ? this.indexWithoutIndex(callDelta) : this.slotOf(callDelta.index);
    const open = this.calls[index];
    if (open?.started && callDelta.function?.name && isWholeJson(open.arguments) && repeatsWholeCall(open, callDelta)) {
      // A call streamed in fragments and then sent once more whole under its id (some proxies do): run it once.
      return deltas;
    }
    if (open?.started && callDelta.function?.name && isWholeJson(open.arguments) && opensAnotherCall(open, callDelta)) {
      // Another named call where one is open and whole: a call of its own (Ollama sends every call of a reply at index 0).
      index = this.calls.length;
      if (callDelta.index !== undefined) this.slots.set(callDelta.index, index);
    }
    const call = (this.calls[index] ??= { id: undefined, wireId: undefined, name: '', arguments: '', started: false });
    // The first id holds: some servers repeat it in every delta, and the start event already named the call.
    if (callDelta.id && call.wireId === undefined) call.wireId = callDelta.id;
    // Set once: some servers repeat the name in every delta of a call.
    if (callDelta.function?.name && call.name === '') {
      call.name = callDelta.function.name;
      this.outputCharacters += call.name.length;
    }
    if (!call.started && call.name !== '') {
      call.started = true;
      deltas = append(deltas, { type: 'toolCallStart', index, id: this.idOf(call, index), name: call.name });
      // Arguments that came before the name was known.
      if (call.arguments !== '') deltas = append(deltas, { type: 'toolCallArgs', index, delta: call.arguments });
    }
    const args = callDelta.function?.arguments;
    if (typeof args === 'string' && args !== '') {
      call.arguments += args;
      this.outputCharacters += args.length;
      if (call.started) deltas = append(deltas, { type: 'toolCallArgs', index, delta: args });
    }
    return deltas;
  }

  /** A wire index seen first gets its own slot, or a new one when a call moved off another index holds it. */
  private slotOf(wireIndex: number): number {
    let slot = this.slots.get(wireIndex);
    if (slot === undefined) {
      slot = this.calls[wireIndex] === undefined ? wireIndex : this.calls.length;
      this.slots.set(wireIndex, slot);
    }
    return slot;
  }

  /** Servers that omit `index`: an id or a name opens a new call, anything else continues the last one. */
  private indexWithoutIndex(callDelta: LenientToolCallDelta): number {
    const opensCall = Boolean(callDelta.id) || Boolean(callDelta.function?.name);
    return opensCall || this.calls.length === 0 ? this.calls.length : this.calls.length - 1;
  }

  private idOf(call: PartialToolCall, index: number): string {
    if (call.id !== undefined) return call.id;
    const id = uniqueToolCallId(call.wireId, index, (taken) => this.calls.some((other) => other !== call && other.id === taken));
    call.id = id;
    return id;
  }

  toolCalls(): ToolCall[] {
    return this.calls
      .map((call, index) => ({ call, index }))
      .filter(({ call }) => call.name !== '')
      .map(({ call, index }) => ({ id: this.idOf(call, index), name: call.name, arguments: call.arguments }));
  }

  /** Calls begun (an id or arguments) that never got a tool name. */
  namelessToolCalls(): number {
    return this.calls.filter((call) => call.name === '' && (call.wireId !== undefined || call.arguments !== '')).length;
  }

  /** Everything the model produced, for estimating completion tokens. */
  outputText(): string {
    return this.reasoning + this.content + this.calls.map((call) => call.name + call.arguments).join('');
  }
}

/**
 * A named fragment at a whole open call starts another call when it has a new
 * id, names another tool, or, under the same id or none, brings arguments of
 * its own: anything more appended to whole JSON would break it. (A repeated
 * name with no arguments, as some servers send, stays on the call.)
 */
function opensAnotherCall(open: PartialToolCall, callDelta: LenientToolCallDelta): boolean {
  if (callDelta.id && open.wireId !== undefined && open.wireId !== callDelta.id) return true;
  const args = callDelta.function?.arguments;
  const bringsArguments = typeof args === 'string' && args.trim() !== '';
  // Another tool's name with arguments of its own (a name sent in pieces brings none with its first pieces).
  if (callDelta.function?.name !== open.name && bringsArguments) return true;
  return open.arguments.trim() !== '' && bringsArguments;
}

/** The same call again, whole: its id (when both have one), its name and exactly the arguments already received. */
function repeatsWholeCall(open: PartialToolCall, callDelta: LenientToolCallDelta): boolean {
  if (open.wireId === undefined || callDelta.id !== open.wireId) return false;
  const args = callDelta.function?.arguments;
  return callDelta.function?.name === open.name && typeof args === 'string' && args.trim() !== '' && sameJson(args, open.arguments);
}

/** The same JSON value, however it is spaced. */
function sameJson(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/** The open call's arguments are complete: what comes next with a name cannot be more of them, only a call of its own or a repeat. */
function isWholeJson(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
