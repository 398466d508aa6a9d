// Which messages of a request are condensed and which stay verbatim. Pure:
// the rules (the leading system message), the current task (the user's
// latest message) and the most recent tool exchanges stay; the earlier turns
// (and an earlier summary) and the older tool exchanges of this run go into
// the summary.
import type { ChatMessage } from '../models/chatModel';
import { capResult } from './resultCap';
import { withoutImageNotes } from './toolImages';

export interface CondensePlan {
  /** The leading system message (the rules), verbatim. */
  readonly head: readonly ChatMessage[];
  /** What the summary replaces, in order. */
  readonly older: readonly ChatMessage[];
  /** The current task and the recent tool exchanges, verbatim. */
  readonly kept: readonly ChatMessage[];
  /** How many of `older` are the conversation's own messages before the task. */
  readonly historyMessages: number;
}

/**
 * Plans a condensation of `messages`, keeping the last `keepExchanges` tool
 * exchanges (an assistant message and the results or notes after it).
 * `task` is the user's latest message (found by identity; else the last user
 * message). Undefined when nothing older is left to condense.
 */
export function planCondense(
  messages: readonly ChatMessage[],
  task: ChatMessage | undefined,
  keepExchanges: number,
  /** False for a bare conversation (no rules first): a leading system message is then an earlier summary. */
  rulesFirst = true,
): CondensePlan | undefined {
  let taskIndex = task ? messages.indexOf(task) : -1;
  if (taskIndex < 0) taskIndex = messages.map((message) => message.role).lastIndexOf('user');
  if (taskIndex < 0) return undefined;
  const head = rulesFirst && messages[0]?.role === 'system' && taskIndex > 0 ? [messages[0]] : [];
  const before = messages.slice(head.length, taskIndex);
  const after = messages.slice(taskIndex + 1);
  // Exchanges start at an assistant message; anything before the first one belongs to it.
  const starts = after.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
  const cut = starts.length > keepExchanges ? (starts[starts.length - keepExchanges] ?? after.length) : 0;
  const older = [...before, ...after.slice(0, cut)];
  // An earlier summary alone is not condensed again: a summary of a summary only loses more.
  if (older.length === 0 || (older.length === 1 && older[0]?.role === 'system')) return undefined;
  return { head, older, kept: [messages[taskIndex]!, ...after.slice(cut)], historyMessages: before.length };
}

/** Characters of one message in the transcript the summarizer reads. */
const MESSAGE_CHARS = 6_000;

/** The condensed messages as plain text for the summarizer, at most `limitChars` (head and tail kept). */
export function transcriptOf(messages: readonly ChatMessage[], limitChars: number): string {
  const lines = messages.map((message) => {
    switch (message.role) {
      case 'system':
        return `[earlier summary]\n${capResult(message.content, MESSAGE_CHARS)}`;
      case 'user': {
        // The images are not beside the summary: "… are attached" would be false there, and an images-only message says nothing else.
        const text = withoutImageNotes(message.content);
        return text ? `[user]\n${capResult(text, MESSAGE_CHARS)}` : '';
      }
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => `[assistant called ${call.name}(${capResult(call.arguments, 500)})]`);
        return [message.content ? `[assistant]\n${capResult(message.content, MESSAGE_CHARS)}` : '', ...calls].filter(Boolean).join('\n');
      }
      case 'tool':
        return `[tool result]\n${capResult(message.content, MESSAGE_CHARS)}`;
    }
  });
  return capResult(lines.filter(Boolean).join('\n\n'), limitChars);
}

export const CONDENSE_SYSTEM_PROMPT = [
  'You condense the earlier part of a conversation between a user and Tandem, a coding agent in VS Code, so that the conversation fits the model\'s context window.',
  'Write a summary the agent can continue from. Keep: what the user asked for and decided; facts found (file paths, line numbers, identifiers, values, error messages); which tools were called and what they returned, briefly; files changed and how; open questions.',
  'Leave out greetings and repetition. Plain text or short Markdown bullets, no preamble. Do not answer the user or continue the task.',
].join('\n');

export function condenseRequest(transcript: string): ChatMessage[] {
  return [
    { role: 'system', content: CONDENSE_SYSTEM_PROMPT },
    { role: 'user', content: `The conversation so far:\n\n${transcript}\n\nWrite the summary now.` },
  ];
}
