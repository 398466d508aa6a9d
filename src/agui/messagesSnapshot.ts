// The conversation as the client holds it at an interrupt: AG-UI asks for a
// MESSAGES_SNAPSHOT before RUN_FINISHED, so a client that replays rather than
// resumes has everything. Built the way @ag-ui/client applies events: a tool
// call without a parent message is an assistant message with the call's id.
// Reasoning messages stay out: a snapshot without any leaves the client's own;
// so do messages a retry or a reclassification discarded.
import { EventType, type AssistantMessage, type Message } from '@ag-ui/core';
import { CustomEventName, type AgentEvent } from '../protocol/agentEvents';

export class MessagesSnapshot {
  private readonly messages: Message[];
  private readonly byId = new Map<string, Message>();

  constructor(input: readonly Message[]) {
    this.messages = input.filter((message) => message.role !== 'reasoning' && message.role !== 'activity').map((message) => ({ ...message }));
    for (const message of this.messages) this.byId.set(message.id, message);
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case EventType.TEXT_MESSAGE_START:
        this.add({ id: String(event['messageId']), role: 'assistant', content: '' });
        break;
      case EventType.TEXT_MESSAGE_CONTENT: {
        const message = this.byId.get(String(event['messageId']));
        if (message?.role === 'assistant') message.content = `${message.content ?? ''}${String(event['delta'])}`;
        break;
      }
      case EventType.TOOL_CALL_START: {
        const id = String(event['toolCallId']);
        this.add({ id, role: 'assistant', toolCalls: [{ id, type: 'function', function: { name: String(event['toolCallName']), arguments: '' } }] });
        break;
      }
      case EventType.TOOL_CALL_ARGS: {
        const call = (this.byId.get(String(event['toolCallId'])) as AssistantMessage | undefined)?.toolCalls?.[0];
        if (call) call.function.arguments += String(event['delta']);
        break;
      }
      case EventType.TOOL_CALL_RESULT: {
        const message: Message = { id: String(event['messageId']), role: 'tool', toolCallId: String(event['toolCallId']), content: String(event['content']) };
        if (this.byId.has(message.id)) break;
        // Right after its call (and the results already there), as the client places it.
        const call = this.messages.findIndex((candidate) => candidate.role === 'assistant' && candidate.toolCalls?.some((toolCall) => toolCall.id === message.toolCallId));
        let at = call === -1 ? this.messages.length : call + 1;
        while (at < this.messages.length && this.messages[at]?.role === 'tool') at++;
        this.messages.splice(at, 0, message);
        this.byId.set(message.id, message);
        break;
      }
      case EventType.CUSTOM: {
        if (event['name'] !== CustomEventName.retry && event['name'] !== CustomEventName.reclassified) break;
        const discarded = (event['value'] as { discarded?: unknown } | undefined)?.discarded;
        for (const id of Array.isArray(discarded) ? discarded : []) this.remove(String(id));
        break;
      }
    }
  }

  snapshot(): Message[] {
    return this.messages.map((message) => structuredClone(message));
  }

  private remove(id: string): void {
    const message = this.byId.get(id);
    if (message?.role !== 'assistant') return;
    this.byId.delete(id);
    this.messages.splice(this.messages.indexOf(message), 1);
  }

  private add(message: Message): void {
    if (this.byId.has(message.id)) return;
    this.messages.push(message);
    this.byId.set(message.id, message);
  }
}
