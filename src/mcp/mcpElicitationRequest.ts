// Wires elicitation/create from a server to the injected handler: form mode
// gets the schema's defaults applied to whatever the user left out.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitationHandler, ElicitationSchema } from '../tools/elicitation';
import { applySchemaDefaults } from '../tools/elicitationValidation';

export async function answerElicitation(client: Client, serverName: string, handler: ElicitationHandler): Promise<void> {
  const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params;
    if (params.mode === 'url') {
      const answer = await handler({ mode: 'url', serverName, message: params.message, url: params.url, elicitationId: params.elicitationId }, extra.signal);
      return answer.action === 'accept' ? { action: 'accept' } : { action: answer.action };
    }
    const schema = params.requestedSchema as unknown as ElicitationSchema;
    const answer = await handler({ mode: 'form', serverName, message: params.message, requestedSchema: schema }, extra.signal);
    if (answer.action !== 'accept') return { action: answer.action };
    return { action: 'accept', content: applySchemaDefaults(schema, answer.content) };
  });
}
