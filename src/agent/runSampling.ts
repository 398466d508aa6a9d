// An MCP server's request for the model during one of its tool calls, for one
// run. The user decides first: the request is an approval on the call's step
// (what the server sends, to which model, for how many tokens), asked even
// under `autoApprove: all`, since it spends the user's tokens for the
// server's purposes; only an "Always allow" for that server lets it pass
// unasked. Then the answer model writes the reply, counted in the run's usage.
// The server gets its own messages answered, nothing of the conversation,
// within its token limit (sent with the request; the reply is also cut at
// about four characters a token for an endpoint that ignores it).
import type { ChatMessage, ChatModel } from '../models/chatModel';
import { CustomEventName } from '../protocol/agentEvents';
import { SamplingRefused, type SamplingRequest, type SamplingResult } from '../tools/sampling';
import type { ApprovalGate } from '../tools/tool';
import { runModelTurn } from './modelTurn';
import type { RunEmitter } from './runEmitter';
import type { UsageTracker } from './usageTracker';

/** Answers a sampling request made during the call whose gate this is (`toolCallId`: that call, for the note of a rejection). */
export type RunSampler = (request: SamplingRequest, signal: AbortSignal, gate: ApprovalGate, toolCallId?: string) => Promise<SamplingResult>;

export interface RunSamplingOptions {
  readonly model: ChatModel;
  readonly usage: UsageTracker;
  readonly emitter: RunEmitter;
  readonly log?: ((line: string) => void) | undefined;
}

/** The `tandem.tools.alwaysAllow` entry that lets this server's requests pass unasked. */
export function samplingAllowKey(serverName: string): string {
  return `mcp_sampling:${serverName}`;
}

/** About four characters a token: a backstop for an endpoint that ignores the request's token limit. */
const CHARS_PER_TOKEN = 4;

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function chatMessages(request: SamplingRequest): ChatMessage[] {
  const messages: ChatMessage[] = request.systemPrompt ? [{ role: 'system', content: request.systemPrompt }] : [];
  for (const message of request.messages) {
    messages.push(message.role === 'user' ? { role: 'user', content: message.text, ...(message.images?.length && { images: message.images }) } : { role: 'assistant', content: message.text });
  }
  return messages;
}

export function createRunSampling(options: RunSamplingOptions): RunSampler {
  const { model, usage, emitter } = options;
  return async (request, signal, gate, toolCallId) => {
    const key = samplingAllowKey(request.allowAs ?? request.serverName);
    const last = request.messages.at(-1)?.text ?? '';
    const approved = await gate.request(
      {
        kind: 'toolCall',
        toolName: `${request.serverName} sampling`,
        arguments: { model: model.name, maxTokens: request.maxTokens, systemPrompt: request.systemPrompt, messages: request.messages.map(({ role, text, images }) => ({ role, text, ...(images?.length && { images: images.length }) })) },
        readOnly: false,
        summary: `MCP server "${request.serverName}" asks to use your model ${model.name} (up to ${request.maxTokens} tokens): "${preview(last)}"`,
        alwaysAsks: true,
        alwaysAllow: { key, label: `Always allow sampling by ${request.serverName}` },
        allowedBy: (entries) => entries.includes(key),
      },
      signal,
    );
    if (!approved) {
      // The note typed on the card goes to the server, as a rejected call's goes to the model.
      const note = toolCallId === undefined ? undefined : gate.rejectionNote?.(toolCallId)?.trim();
      throw new SamplingRefused(`The user declined the sampling request of MCP server "${request.serverName}".${note ? ` Their note: ${note}` : ''}`);
    }
    const turn = await runModelTurn(model, { messages: chatMessages(request), maxTokens: request.maxTokens }, signal, {
      onPartialUsage: (partial) => usage.recordPartial('answer', partial),
    });
    usage.recordCall('answer', turn, { meter: false });
    emitter.custom(CustomEventName.usage, usage.snapshot());
    const limit = request.maxTokens * CHARS_PER_TOKEN;
    const cut = turn.content.length > limit;
    const text = cut ? turn.content.slice(0, limit) : turn.content;
    options.log?.(`sampling for MCP server "${request.serverName}": ${text.length} characters from ${turn.model || model.name}${cut ? ' (cut at its token limit)' : ''}`);
    return { text, model: turn.model || model.name, stopReason: cut || turn.finishReason === 'length' ? 'maxTokens' : 'endTurn' };
  };
}
