// Maps an AG-UI RunAgentInput (what any AG-UI client POSTs) to a Tandem run:
// the user and assistant text of the thread becomes the conversation.
import type { RunAgentInput } from '@ag-ui/core';
import type { ChatMessage } from '../models/chatModel';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
      .join('');
  }
  return '';
}

export function conversationOf(input: RunAgentInput): ChatMessage[] {
  const conversation: ChatMessage[] = [];
  for (const message of input.messages) {
    const text = textOf((message as { content?: unknown }).content);
    if (!text) continue;
    if (message.role === 'user') conversation.push({ role: 'user', content: text });
    else if (message.role === 'assistant') conversation.push({ role: 'assistant', content: text });
  }
  return conversation;
}
