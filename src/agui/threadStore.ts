// Server-side history per threadId, bounded in threads (least recently used
// goes first) and in messages per thread. A client that sends the whole
// history (any message the server knows) is authoritative; a client that
// sends only its new message gets the thread's history before it.
import type { Message, RunAgentInput } from '@ag-ui/core';
import { SessionCache } from '../agent/sessionCache';
import type { ChatImage, ChatMessage } from '../models/chatModel';
import { inspectImage, MAX_IMAGES_PER_RESULT } from '../models/chatImages';
import type { AgUiExecution } from './agUiExecution';
import type { ThreadSummary } from './threadSummary';

export interface HistoryEntry {
  /** The AG-UI message id (the client's, or the answer's TEXT_MESSAGE id). */
  readonly id: string;
  readonly message: ChatMessage;
}

export interface ThreadState {
  history: HistoryEntry[];
  readonly cache: SessionCache;
  /** The loop of this thread, while it runs or waits on interrupts. */
  execution: AgUiExecution | undefined;
  /** True while an AG-UI run of this thread is streaming. */
  streaming: boolean;
  /** The condensed beginning of the history, reused while the history starts the same. */
  summary?: ThreadSummary | undefined;
}

export interface ThreadLimits {
  readonly maxThreads: number;
  readonly maxMessagesPerThread: number;
}

function textOf(content: unknown): string {
  return partsOf(content, false).text;
}

/**
 * A message's text, and with `withImages` its image parts the models can take
 * (inline data that is a PNG, JPEG, GIF or WebP by its bytes, within the
 * limits), each also named in the text where it stood; every other part
 * (audio, video, a document, an image by URL or provider handle) is a line
 * saying it was left out.
 */
function partsOf(content: unknown, withImages: boolean): { text: string; images: ChatImage[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const images: ChatImage[] = [];
  if (!Array.isArray(content)) return { text: '', images };
  let text = '';
  for (const part of content as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const { type, text: partText, source } = part as { type?: unknown; text?: unknown; source?: { type?: unknown; value?: unknown; mimeType?: unknown } };
    if (type === 'text') text += String(partText ?? '');
    else if (typeof type !== 'string') continue;
    else if (type === 'image' && withImages && source?.type === 'data' && typeof source.value === 'string') {
      const image = imageOf(source.value, images.length);
      if (typeof image === 'string') text += leftOutPart(type, source.mimeType, image);
      else {
        images.push(image.image);
        text += `\n[Image ${images.length} (${image.description}) attached by the client: the models get it as a picture with this message, for this run.]\n`;
      }
    } else text += leftOutPart(type, source?.mimeType);
  }
  return { text, images };
}

/** An inline image the models can take, or why not. */
function imageOf(data: string, attachedBefore: number): { image: ChatImage; description: string } | string {
  if (attachedBefore >= MAX_IMAGES_PER_RESULT) return `only ${MAX_IMAGES_PER_RESULT} images of a message go to the models`;
  const inspected = inspectImage(data);
  return 'reason' in inspected ? `it is ${inspected.reason}` : inspected;
}

/**
 * What stands in for a part the models do not get: a message of just an
 * image must not vanish (the run would answer the message before it) nor
 * reach the model as if nothing was sent.
 */
function leftOutPart(type: string, mimeType: unknown, why?: string): string {
  const what = typeof mimeType === 'string' && mimeType !== '' ? `${type} (${mimeType})` : type;
  const reason = why ?? (type === 'image' ? 'Tandem takes images as inline data only' : 'Tandem gives the model text and images only');
  return `\n[${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what} was attached here; ${reason}, so it is left out.]\n`;
}

/**
 * The user and assistant text of the input, with the messages' ids; the last
 * message, when it is the user's, keeps its images (only the new question's
 * go to the models, as in the panel: earlier ones are named by their line).
 */
export function entriesOf(messages: readonly Message[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  messages.forEach((message, index) => {
    const { text, images } = partsOf((message as { content?: unknown }).content, message.role === 'user' && index === messages.length - 1);
    if (!text) return;
    if (message.role === 'user') entries.push({ id: message.id, message: { role: 'user', content: text, ...(images.length > 0 && { images }) } });
    else if (message.role === 'assistant') entries.push({ id: message.id, message: { role: 'assistant', content: text } });
    // The client holds the token: its instructions count like the user's (and so
    // reach both models: the answer phase keeps only user and assistant turns).
    else if (message.role === 'system' || message.role === 'developer') {
      entries.push({ id: message.id, message: { role: 'user', content: `Instructions from the client application:\n${text}` } });
    }
  });
  return entries;
}

/** Tool messages of the input by tool call id (frontend tool results sent as messages). */
export function toolMessagesOf(input: RunAgentInput): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of input.messages) {
    if (message.role === 'tool') results.set(message.toolCallId, textOf(message.content));
  }
  return results;
}

export class ThreadStore {
  private readonly threads = new Map<string, ThreadState>();

  constructor(
    private readonly limits: ThreadLimits,
    private readonly onEvict: (thread: ThreadState) => void = () => undefined,
  ) {}

  /** The thread, created if new, marked most recently used. */
  get(threadId: string): ThreadState {
    let thread = this.threads.get(threadId);
    if (thread) {
      this.threads.delete(threadId);
    } else {
      thread = { history: [], cache: new SessionCache(), execution: undefined, streaming: false };
    }
    this.threads.set(threadId, thread);
    this.evict();
    return thread;
  }

  /** The conversation for a new run on this thread. */
  conversationFor(thread: ThreadState, input: RunAgentInput): HistoryEntry[] {
    const incoming = entriesOf(input.messages);
    const known = new Set(thread.history.map((entry) => entry.id));
    return incoming.some((entry) => known.has(entry.id)) ? incoming : [...thread.history, ...incoming];
  }

  /** RunAgentInput.context as one system note for this run (not kept in the history). */
  contextNote(input: RunAgentInput): HistoryEntry | undefined {
    const items = (input.context ?? []).filter((item) => item.value.trim() !== '');
    if (items.length === 0) return undefined;
    const text = items.map((item) => `- ${item.description}: ${item.value}`).join('\n');
    return { id: `context-${input.runId}`, message: { role: 'user', content: `Context from the client application:\n${text}` } };
  }

  remember(thread: ThreadState, entries: readonly HistoryEntry[]): void {
    // Pictures go with their own run only; the history keeps the lines that name them.
    thread.history = entries.slice(-this.limits.maxMessagesPerThread).map((entry) => (entry.message.role === 'user' && entry.message.images ? { id: entry.id, message: { role: 'user', content: entry.message.content } } : entry));
  }

  get size(): number {
    return this.threads.size;
  }

  forEachExecution(visit: (execution: AgUiExecution) => void): void {
    for (const thread of this.threads.values()) if (thread.execution) visit(thread.execution);
  }

  private evict(): void {
    for (const [threadId, thread] of this.threads) {
      if (this.threads.size <= this.limits.maxThreads) return;
      if (thread.streaming) continue; // never the thread of a run in progress
      this.threads.delete(threadId);
      this.onEvict(thread);
    }
  }
}
