// What the models see of earlier turns: the user's prompts (with what was
// attached to them) and the final answers. Tool traffic stays in the run that
// produced it. Read straight from the stored stream: the prompt event and
// RUN_FINISHED's result.
import type { ChatMessage } from '../models/chatModel';
import type { AgentEvent } from './agentEvents';
import { HostEventName } from './hostEventNames';

export function historyMessages(events: readonly AgentEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const event of events) {
    if (event.type === 'CUSTOM' && event['name'] === HostEventName.userMessage) {
      const value = event['value'] as { text?: unknown; attached?: { text?: unknown } } | undefined;
      const text = value?.text;
      // Items attached to the prompt (context chips) follow the typed text.
      const attached = value?.attached?.text;
      if (typeof text === 'string' && text) messages.push({ role: 'user', content: promptWithAttachments(text, typeof attached === 'string' ? attached : undefined) });
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
