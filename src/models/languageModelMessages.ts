// The conversation as VS Code's language model API wants it, in plain data
// (src/host/vscodeChatModel.ts turns it into vscode classes). That API has
// two roles only: the system prompt goes first as a user message, a tool
// result is a part of a user message, and messages of one role in a row are
// merged (some providers reject two user messages in a row).
import type { ChatMessage } from './chatModel';
import { IMAGES_NOT_SENT } from './chatImages';

export type LanguageModelPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: object }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string };

export interface LanguageModelMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: LanguageModelPart[];
}

/** A tool call's argument text as the object the API expects; text that is not a JSON object is kept under `input`. */
export function toolCallInput(argumentsText: string): object {
  try {
    const parsed: unknown = JSON.parse(argumentsText || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // The model wrote arguments that are not JSON; the loop already told it so.
  }
  return { input: argumentsText };
}

export function toLanguageModelMessages(messages: readonly ChatMessage[]): LanguageModelMessage[] {
  const result: LanguageModelMessage[] = [];
  const add = (role: LanguageModelMessage['role'], parts: LanguageModelPart[]) => {
    if (parts.length === 0) return;
    const last = result.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else result.push({ role, parts: [...parts] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        add('user', message.content ? [{ kind: 'text', text: message.content }] : []);
        break;
      case 'user': {
        // Images are not passed through this API here; the text must not claim they are attached.
        const text = message.images?.length ? `${message.content}\n(${IMAGES_NOT_SENT})` : message.content;
        add('user', text ? [{ kind: 'text', text }] : []);
        break;
      }
      case 'assistant':
        add('assistant', [
          ...(message.content ? [{ kind: 'text' as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({ kind: 'toolCall' as const, callId: call.id, name: call.name, input: toolCallInput(call.arguments) })),
        ]);
        break;
      case 'tool':
        add('user', [{ kind: 'toolResult', callId: message.toolCallId, text: message.content }]);
        break;
    }
  }
  return result;
}

/** Plain text of a message, for token counting. */
export function languageModelMessageText(message: LanguageModelMessage): string {
  return message.parts
    .map((part) => (part.kind === 'text' || part.kind === 'toolResult' ? part.text : `${part.name}(${JSON.stringify(part.input)})`))
    .join('\n');
}
