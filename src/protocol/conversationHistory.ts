// What the models see of earlier turns: the user's prompts (with what was
// attached to them) and the final answers. Tool traffic stays in the run that
// produced it. Read straight from the stored stream: the prompt event and
// RUN_FINISHED's result; a `tandem.condensed` event replaces the turns it
// condensed with its summary.
import type { ChatMessage } from '../models/chatModel';
import { CustomEventName, type AgentEvent } from './agentEvents';
import { HostEventName } from './hostEventNames';

const SUMMARY_HEADING = 'Summary of the earlier conversation (condensed by Tandem to fit the context window):';

/** How a condensed summary stands in for the turns it replaced: a system message after the rules. */
export function summaryMessage(summary: string): ChatMessage {
  return { role: 'system', content: `${SUMMARY_HEADING}\n\n${summary}` };
}

export function historyMessages(events: readonly AgentEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const event of events) {
    if (event.type === 'CUSTOM' && event['name'] === HostEventName.userMessage) {
      const value = event['value'] as { text?: unknown; attached?: { text?: unknown } } | undefined;
      const text = value?.text;
      // Items attached to the prompt (context chips) follow the typed text.
      const attached = value?.attached?.text;
      if (typeof text === 'string' && text) messages.push({ role: 'user', content: promptWithAttachments(text, typeof attached === 'string' ? attached : undefined) });
    } else if (event.type === 'CUSTOM' && event['name'] === CustomEventName.condensed) {
      const value = event['value'] as { summary?: unknown; historyMessages?: unknown } | undefined;
      const replaced = typeof value?.historyMessages === 'number' ? Math.min(value.historyMessages, messages.length) : 0;
      if (replaced > 0 && typeof value?.summary === 'string') messages.splice(0, replaced, summaryMessage(value.summary));
    } else if (event.type === 'RUN_FINISHED') {
      const answer = (event['result'] as { answer?: unknown } | undefined)?.answer;
      if (typeof answer === 'string' && answer) messages.push({ role: 'assistant', content: answer });
    }
  }
  return messages;
}

/** The typed prompt followed by the attached items' blocks: what the models read. */
export function promptWithAttachments(text: string, attached: string | undefined): string {
  return attached === undefined || attached === '' ? text : `${text}\n\n${attached}`;
}
