// Server-side history per threadId, bounded in threads (least recently used
// goes first) and in messages per thread. A client that sends the whole
// history (any message the server knows) is authoritative; a client that
// sends only its new message gets the thread's history before it.
import type { Message, RunAgentInput } from '@ag-ui/core';
import { SessionCache } from '../agent/sessionCache';
import type { ChatMessage } from '../models/chatModel';
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
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const { type, text: partText } = part as { type?: unknown; text?: unknown };
    if (type === 'text') text += String(partText ?? '');
    else if (typeof type === 'string') text += leftOutPart(type, (part as { source?: { mimeType?: unknown } }).source?.mimeType);
  }
  return text;
}

/**
 * What stands in for an image, audio, video or document part: the models get
 * text only, and a message of just an image must not vanish (the run would
 * answer the message before it) nor reach the model as if nothing was sent.
 */
function leftOutPart(type: string, mimeType: unknown): string {
  const what = typeof mimeType === 'string' && mimeType !== '' ? `${type} (${mimeType})` : type;
  return `\n[${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what} was attached here; Tandem gives the model text only, so it is left out.]\n`;
}

/** The user and assistant text of the input, with the messages' ids. */
export function entriesOf(messages: readonly Message[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const message of messages) {
    const text = textOf((message as { content?: unknown }).content);
    if (!text) continue;
    if (message.role === 'user') entries.push({ id: message.id, message: { role: 'user', content: text } });
    else if (message.role === 'assistant') entries.push({ id: message.id, message: { role: 'assistant', content: text } });
    // The client holds the token: its instructions count like the user's (and so
    // reach both models: the answer phase keeps only user and assistant turns).
    else if (message.role === 'system' || message.role === 'developer') {
      entries.push({ id: message.id, message: { role: 'user', content: `Instructions from the client application:\n${text}` } });
    }
  }
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
    thread.history = entries.slice(-this.limits.maxMessagesPerThread);
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
