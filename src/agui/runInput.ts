// Validates what a client POSTs (a RunAgentInput, with @ag-ui/core's own
// schema) and names the first field at fault, so a 400 says what to fix.
import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { HttpRefusal } from './httpGuards';

/** OpenAI's rule for function names; a frontend tool must follow it to reach the model. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function parseRunInput(text: string, serverToolNames: ReadonlySet<string>): RunAgentInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HttpRefusal(400, `The body is not JSON: ${(error as Error).message}`, '(body)');
  }
  const result = RunAgentInputSchema.safeParse(parsed);
  if (!result.success) {
    const first = result.error.issues[0];
    const field = first && first.path.length > 0 ? first.path.join('.') : '(input)';
    const faults = result.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
    throw new HttpRefusal(400, `Not a RunAgentInput: ${faults}`, field);
  }
  const input = result.data as RunAgentInput;
  const seen = new Set<string>();
  (input.tools ?? []).forEach((tool, index) => {
    const field = `tools.${index}.name`;
    if (!TOOL_NAME.test(tool.name)) throw new HttpRefusal(400, `${field}: "${tool.name}" must match ${TOOL_NAME.source}.`, field);
    if (serverToolNames.has(tool.name)) throw new HttpRefusal(400, `${field}: "${tool.name}" is the name of a server tool; rename the frontend tool.`, field);
    if (seen.has(tool.name)) throw new HttpRefusal(400, `${field}: "${tool.name}" is listed twice.`, field);
    seen.add(tool.name);
  });
  return { ...input, tools: input.tools ?? [], context: input.context ?? [] };
}
