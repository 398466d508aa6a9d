// A thread's condensed beginning. When a run condenses earlier turns, the
// summary is kept with the thread together with a digest of the messages it
// stands for; a later run whose conversation starts with those same messages
// sends the summary in their place instead of paying the answer model to
// condense them again. AG-UI clients keep (and resend) the full history, so
// the server is the one that remembers. Pure; no HTTP.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../models/chatModel';
import type { CondensedPayload } from '../protocol/agentEvents';
import { summaryMessage } from '../protocol/conversationHistory';

export interface ThreadSummary {
  /** How many messages at the start of the conversation the summary stands for. */
  readonly count: number;
  /** Digest of those messages (role and text), so a changed history does not reuse it. */
  readonly digest: string;
  readonly text: string;
}

/** The run's input: messages, each with how many conversation messages it stands for. */
export interface SummarizedConversation {
  readonly messages: ChatMessage[];
  /** covers[i]: conversation messages messages[i] stands for (1 each; the summary, `count`; a per-run note, 0). */
  readonly covers: number[];
}

export function digestOf(messages: readonly ChatMessage[]): string {
  const hash = createHash('sha256');
  for (const message of messages) hash.update(`${message.role}\u0000${message.content ?? ''}\u0001`);
  return hash.digest('base64url');
}

/**
 * The conversation for a run: `summary` in place of the messages it stands
 * for when they begin `conversation` unchanged (and something follows them);
 * `note` (per run, never summarized for later) first.
 */
export function applySummary(summary: ThreadSummary | undefined, conversation: readonly ChatMessage[], note?: ChatMessage): SummarizedConversation {
  const messages: ChatMessage[] = note ? [note] : [];
  const covers: number[] = note ? [0] : [];
  let start = 0;
  if (summary && summary.count < conversation.length && digestOf(conversation.slice(0, summary.count)) === summary.digest) {
    messages.push(summaryMessage(summary.text));
    covers.push(summary.count);
    start = summary.count;
  }
  for (const message of conversation.slice(start)) {
    messages.push(message);
    covers.push(1);
  }
  return { messages, covers };
}

/**
 * The thread's summary after a run that condensed (`condensations`, in order):
 * each replaced the first `historyMessages` of the run's conversation as it
 * stood. Keeps `previous` when the run condensed none of the history.
 */
export function summaryAfter(
  previous: ThreadSummary | undefined,
  run: SummarizedConversation,
  conversation: readonly ChatMessage[],
  condensations: readonly Pick<CondensedPayload, 'summary' | 'historyMessages'>[],
): ThreadSummary | undefined {
  const covers = [...run.covers];
  let latest: { count: number; text: string } | undefined;
  for (const condensed of condensations) {
    const replaced = Math.min(condensed.historyMessages, covers.length);
    if (replaced <= 0) continue;
    const count = covers.slice(0, replaced).reduce((sum, each) => sum + each, 0);
    covers.splice(0, replaced, count);
    latest = { count, text: condensed.summary };
  }
  if (latest === undefined || latest.count === 0 || latest.count > conversation.length) return previous;
  return { count: latest.count, digest: digestOf(conversation.slice(0, latest.count)), text: latest.text };
}
