// Wires sampling/createMessage from a server to the injected handler: text
// and images in, text out. A request for tools, or audio, is refused (Tandem
// lends the model for writing, not for acting); `includeContext` is read as
// "none" (the spec lets a client), so no conversation leaves through it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SamplingHandler, SamplingMessage } from '../tools/sampling';
import { SamplingRefused } from '../tools/sampling';

/** What MCP calls a user's rejection of a sampling request. */
const USER_REJECTED = -1;

export async function answerSampling(client: Client, serverName: string, handler: SamplingHandler): Promise<void> {
  const { CreateMessageRequestSchema, McpError, ErrorCode } = await import('@modelcontextprotocol/sdk/types.js');
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const params = request.params;
    if (params.tools !== undefined && params.tools.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, 'Tandem does not offer tools in sampling: ask for text alone.');
    }
    const messages: SamplingMessage[] = params.messages.map((message, index) => {
      const blocks = Array.isArray(message.content) ? message.content : [message.content];
      const text: string[] = [];
      const images: { mimeType: string; data: string }[] = [];
      for (const block of blocks) {
        if (block.type === 'text') text.push(block.text);
        else if (block.type === 'image' && message.role === 'user') images.push({ mimeType: block.mimeType, data: block.data });
        else throw new McpError(ErrorCode.InvalidParams, `Tandem samples text and a user's images only; message ${index + 1} holds ${block.type === 'image' ? 'an assistant image' : `"${block.type}" content`}.`);
      }
      return { role: message.role, text: text.join('\n'), ...(images.length > 0 && { images }) };
    });
    try {
      const result = await handler({ serverName, messages, systemPrompt: params.systemPrompt, maxTokens: params.maxTokens }, extra.signal);
      return { role: 'assistant', content: { type: 'text', text: result.text }, model: result.model, stopReason: result.stopReason };
    } catch (error) {
      if (error instanceof SamplingRefused) throw new McpError(USER_REJECTED, error.message);
      throw error;
    }
  });
}
