// The peers, each driving the same conversation through its own agent loop
// with the same tool: openai-agents-js (Agent + run, streamed), the AI SDK
// (streamText with tools and a step limit), LangChain.js (createAgent).
// Each asks for one text reply after the tool rounds (6 requests).
import type { Stack } from './stacks';
import { lookup, QUESTION, ROUNDS, TOOL_DESCRIPTION, TOOL_NAME } from './conversation';

export const openAiAgents: Stack = {
  replies: 1,
  async run(baseUrl) {
    const { Agent, run, tool, setTracingDisabled, OpenAIChatCompletionsModel } = await import('@openai/agents');
    const { default: OpenAI } = await import('openai');
    const { z } = await import('zod');
    setTracingDisabled(true);
    const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0 });
    const lookupTool = tool({ name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: z.object({ key: z.string() }), execute: async ({ key }) => lookup(key) });
    const agent = new Agent({ name: 'bench', instructions: 'Answer with the tool.', tools: [lookupTool], model: new OpenAIChatCompletionsModel(client as never, 'fc-model') });
    const result = await run(agent, QUESTION, { stream: true, maxTurns: ROUNDS + 2 });
    for await (const _event of result) void _event;
    await result.completed;
  },
};

export const aiSdk: Stack = {
  replies: 1,
  async run(baseUrl) {
    const { streamText, tool, stepCountIs, jsonSchema } = await import('ai');
    const { createOpenAI } = await import('@ai-sdk/openai');
    const provider = createOpenAI({ baseURL: baseUrl, apiKey: 'bench' });
    const result = streamText({
      model: provider.chat('fc-model'),
      prompt: QUESTION,
      tools: {
        [TOOL_NAME]: tool({
          description: TOOL_DESCRIPTION,
          inputSchema: jsonSchema<{ key: string }>({ type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }),
          execute: async ({ key }) => lookup(key),
        }),
      },
      stopWhen: stepCountIs(ROUNDS + 2),
      maxRetries: 0,
    });
    for await (const _part of result.fullStream) void _part;
  },
};

export const langChain: Stack = {
  replies: 1,
  async run(baseUrl) {
    const { createAgent, tool } = await import('langchain');
    const { ChatOpenAI } = await import('@langchain/openai');
    const { z } = await import('zod');
    const model = new ChatOpenAI({ model: 'fc-model', apiKey: 'bench', configuration: { baseURL: baseUrl }, streaming: true, maxRetries: 0 });
    const lookupTool = tool(async ({ key }: { key: string }) => lookup(key), { name: TOOL_NAME, description: TOOL_DESCRIPTION, schema: z.object({ key: z.string() }) });
    const agent = createAgent({ model, tools: [lookupTool] });
    const stream = await agent.stream({ messages: [{ role: 'user', content: QUESTION }] }, { streamMode: 'messages', recursionLimit: 20 });
    for await (const _chunk of stream) void _chunk;
  },
};
