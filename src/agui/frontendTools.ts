// RunAgentInput.tools are frontend tools: the client runs them. When the model
// calls one, the call waits on an interrupt (reason `tool_call`); the next
// run's resume entry carries the result as its payload (or a tool message with
// the call's id does), and the loop goes on with it.
import type { Tool as AgUiTool } from '@ag-ui/core';
import type { Tool, ToolResult } from '../tools/tool';
import type { InterruptBoard } from './interruptBoard';

function resultText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (payload === undefined) return '(The frontend tool returned nothing.)';
  return JSON.stringify(payload);
}

export function createFrontendTools(definitions: readonly AgUiTool[], board: InterruptBoard): Tool[] {
  return definitions.map((definition) => ({
    name: definition.name,
    description: definition.description,
    parameters: (definition.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    // It changes nothing on the server, and the client is its own approver.
    readOnly: true,
    approvesItself: true,
    source: { kind: 'frontend' },
    async run(_args, context): Promise<ToolResult> {
      const entry = await board.wait(
        {
          kind: 'frontendTool',
          reason: 'tool_call',
          message: `Run the frontend tool ${definition.name} and resume with its result as the payload.`,
          toolCallId: context.callId,
          metadata: { tandem: { kind: 'frontendTool', toolName: definition.name } },
        },
        context.signal,
      );
      if (entry.status === 'cancelled') return { text: `The client cancelled ${definition.name}; it did not run.`, isError: true };
      return { text: resultText(entry.payload) };
    },
  }));
}
