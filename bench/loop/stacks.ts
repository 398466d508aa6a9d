// One function per stack: runs the benchmark conversation once against
// `baseUrl`. `floor` is the raw openai SDK making the same streamed requests
// with no agent logic; `tandem` is Tandem's loop as the extension runs it.
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { AgentSettings } from '../../src/agent/agentSettings';
import { createPolicyApprovalGate } from '../../src/agent/policyApprovalGate';
import { runAgent } from '../../src/agent/runAgent';
import { SessionCache } from '../../src/agent/sessionCache';
import { createChatModel } from '../../src/models/openAiChatModel';
import type { Tool, ToolResult } from '../../src/tools/tool';
import { lookup, QUESTION, ROUNDS, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS } from './conversation';

export interface Stack {
  /** Text replies the stack asks for after the tool rounds. */
  readonly replies: number;
  run(baseUrl: string): Promise<void>;
}

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const floor: Stack = {
  replies: 2,
  async run(baseUrl) {
    const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0 });
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      { type: 'function', function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: TOOL_PARAMETERS } },
    ];
    const messages: Message[] = [{ role: 'user', content: QUESTION }];
    // The same requests as Tandem: the tool rounds and the last reply on the function-call model, then the answer model.
    for (let request = 0; request < ROUNDS + 2; request++) {
      const answer = request === ROUNDS + 1;
      const stream = await client.chat.completions.create({
        model: answer ? 'answer-model' : 'fc-model',
        messages,
        ...(answer ? {} : { tools }),
        stream: true,
        stream_options: { include_usage: true },
      });
      let content = '';
      const calls: { id: string; name: string; arguments: string }[] = [];
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) content += delta.content;
        for (const call of delta.tool_calls ?? []) {
          const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name += call.function.name;
          if (call.function?.arguments) slot.arguments += call.function.arguments;
        }
      }
      if (calls.length === 0) {
        messages.push({ role: 'assistant', content });
        continue;
      }
      messages.push({
        role: 'assistant',
        content: content || null,
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      });
      for (const call of calls) {
        const key = String((JSON.parse(call.arguments) as { key?: unknown }).key);
        messages.push({ role: 'tool', tool_call_id: call.id, content: lookup(key) });
      }
    }
  },
};

export class LookupTool implements Tool {
  readonly name = TOOL_NAME;
  readonly description = TOOL_DESCRIPTION;
  readonly parameters = TOOL_PARAMETERS as unknown as Record<string, unknown>;
  readonly source = { kind: 'workspace' } as const;
  readonly readOnly = true;
  async run(args: unknown): Promise<ToolResult> {
    return { text: lookup(String((args as { key?: unknown }).key)) };
  }
}

export function tandemSettings(baseUrl: string): AgentSettings {
  return {
    functionCallModel: { baseUrl, model: 'fc-model', temperature: 0, maxTokens: 512 },
    answerModel: { baseUrl, model: 'answer-model', temperature: 0.3, maxTokens: 512 },
    singleModel: false,
    mode: 'agent',
    maxIterations: 10,
    maxExecutionSeconds: 60,
    responseMode: 'integrated',
    nonToolReply: 'answer',
    minResultLength: 1,
    verbose: false,
    autoApprove: 'readOnly',
    alwaysAllow: [],
    sensitivePaths: [],
    rulesFiles: [],
    mcpServers: {},
    pricing: {},
  } as unknown as AgentSettings;
}

const tandem: Stack = {
  replies: 2,
  async run(baseUrl) {
    const settings = tandemSettings(baseUrl);
    const functionCallModel = createChatModel(settings.functionCallModel);
    const answerModel = createChatModel(settings.answerModel);
    const events = runAgent(
      { threadId: 'bench', runId: randomUUID(), messages: [{ role: 'user', content: QUESTION }], mode: 'agent' },
      {
        functionCallModel,
        answerModel,
        tools: [new LookupTool()],
        approval: createPolicyApprovalGate('readOnly', async () => false),
        settings,
        cache: new SessionCache(),
      },
      new AbortController().signal,
    );
    for await (const event of events) {
      if (event.type === 'RUN_ERROR') throw new Error(`tandem run failed: ${String(event['message'])}`);
    }
  },
};

import { aiSdk, langChain, openAiAgents } from './peerStacks';

export const stacks: Record<string, Stack> = { floor, tandem, 'openai-agents': openAiAgents, 'ai-sdk': aiSdk, langchain: langChain };
