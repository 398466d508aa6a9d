// Our plain chat types to the wire shapes of the OpenAI chat completions API.

import type { ChatCompletionMessageParam, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { dataUrl } from './chatImages';
import type { ChatMessage, ToolSchema } from './chatModel';

export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return userRunsMerged(leadingSystemMerged(messages)).map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        if (!message.images?.length) return { role: 'user', content: message.content };
        return {
          role: 'user',
          content: [{ type: 'text', text: message.content }, ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: dataUrl(image) } }))],
        };
      case 'assistant':
        if (message.toolCalls && message.toolCalls.length > 0) {
          return {
            role: 'assistant',
            content: message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          };
        }
        return { role: 'assistant', content: message.content ?? '' };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

export function toOpenAiTools(tools: readonly ToolSchema[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * System messages at the head become one (the rules, then e.g. a condensed
 * summary of earlier turns): many chat templates (Mistral's, Gemma's) accept
 * only a single system message, and only first.
 */
function leadingSystemMerged(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (messages[0]?.role !== 'system' || messages[1]?.role !== 'system') return messages;
  let end = 1;
  while (messages[end]?.role === 'system') end++;
  const content = messages
    .slice(0, end)
    .map((message) => message.content ?? '')
    .join('\n\n');
  return [{ role: 'system', content }, ...messages.slice(end)];
}

/**
 * User messages in a row become one (a prompt whose run failed, then the
 * next): strict chat templates (Mistral's, some llama.cpp ones) refuse a
 * conversation whose user and assistant turns do not alternate.
 */
function userRunsMerged(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (!messages.some((message, index) => message.role === 'user' && messages[index - 1]?.role === 'user')) return messages;
  const merged: ChatMessage[] = [];
  for (const message of messages) {
    const last = merged[merged.length - 1];
    if (message.role === 'user' && last?.role === 'user') {
      const images = [...(last.images ?? []), ...(message.images ?? [])];
      merged[merged.length - 1] = { role: 'user', content: `${last.content}\n\n${message.content}`, ...(images.length > 0 && { images }) };
    } else merged.push(message);
  }
  return merged;
}
