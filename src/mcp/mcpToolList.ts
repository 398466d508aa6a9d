// A server's tools/list, read so that one odd tool cannot take its server
// down. The SDK checks the whole list against the MCP schema and refuses all
// of it for one valid-but-unusual JSON Schema (`properties: { x: false }`);
// then the list is read again without that check, and each tool is taken on
// its own: what Tandem needs is kept (the schema is cleaned later, in
// mcpToolSchema.ts), a tool without a name or an object schema is left out
// and named in the log.
import { z } from 'zod';
import { isRecord } from './isRecord';

/** A tool as the server lists it (the parts Tandem uses). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: { readonly readOnlyHint?: boolean | undefined } | undefined;
}

export interface ToolListPage {
  readonly tools: readonly McpToolInfo[];
  readonly nextCursor: string | undefined;
}

/** One page as JSON-RPC delivered it: a list of anything, and maybe a cursor. */
export const LENIENT_TOOL_PAGE = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** A tools/call result as JSON-RPC delivered it: any object (mcpToolResult.ts reads it block by block). */
export const LENIENT_CALL_RESULT = z.looseObject({});

/** True for the SDK refusing a result that did not match the MCP schema (a zod error with its issues). */
export function isSchemaRejection(error: unknown): boolean {
  return isRecord(error) && Array.isArray(error['issues']);
}

/** The first few places a refused list broke the schema, on one line: `tools.1.inputSchema.properties: expected record, received string`. */
export function rejectionSummary(error: unknown, most = 3): string {
  const issues = isRecord(error) && Array.isArray(error['issues']) ? error['issues'].filter(isRecord) : [];
  const shown = issues.slice(0, most).map((issue) => {
    const where = Array.isArray(issue['path']) ? issue['path'].join('.') : '';
    const message = typeof issue['message'] === 'string' ? issue['message'].replace(/^Invalid input: /, '') : 'invalid';
    return where ? `${where}: ${message}` : message;
  });
  return shown.join('; ') + (issues.length > most ? `; ${issues.length - most} more` : '');
}

/** A tool from a page the SDK did not check, or why it is left out. */
export function toolFromRaw(raw: unknown, index: number): McpToolInfo | { readonly skipped: string } {
  if (!isRecord(raw) || typeof raw['name'] !== 'string' || raw['name'].trim() === '') return { skipped: `tool ${index + 1} has no name` };
  const name = raw['name'];
  const schema = raw['inputSchema'];
  if (!isRecord(schema)) return { skipped: `tool "${name}" has no input schema object` };
  if (taskRequired(raw)) return { skipped: `tool "${name}" runs only as a task` };
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const annotations = isRecord(raw['annotations']) ? raw['annotations'] : undefined;
  return {
    name,
    title: text('title'),
    description: text('description'),
    inputSchema: schema,
    annotations: annotations === undefined ? undefined : { readOnlyHint: annotations['readOnlyHint'] === true },
  };
}

/** A tool that must run as a task cannot be called with a plain tools/call. */
export function taskRequired(tool: unknown): boolean {
  return isRecord(tool) && isRecord(tool['execution']) && tool['execution']['taskSupport'] === 'required';
}
