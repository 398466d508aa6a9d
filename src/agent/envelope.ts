// Tool calls for models without native function calling: the JSON envelope
//   {"response": "...", "mcp": {"tool": "...", "method": "...", "params": {...}}}
// found in a reply on its own, inside a code fence, or after prose. A reply
// that clearly tries to call a tool but cannot be read is reported as
// malformed so the model can be told, never silently dropped.
import { z } from 'zod';

export interface EnvelopeCall {
  readonly tool: string;
  readonly method: string | undefined;
  readonly params: Record<string, unknown>;
}

export type EnvelopeParse =
  | { readonly kind: 'none' }
  | { readonly kind: 'envelope'; readonly response: string | undefined; readonly call: EnvelopeCall | undefined; readonly prose: string }
  | { readonly kind: 'malformed'; readonly error: string; readonly prose: string };

const callSchema = z.object({
  tool: z.string().min(1),
  method: z.string().min(1).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

const envelopeSchema = z.object({
  response: z.string().optional(),
  mcp: z.unknown().optional(),
});

interface Candidate {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Balanced `{...}` spans, skipping braces inside JSON strings. */
function objectSpans(text: string, offset: number): Candidate[] {
  const spans: Candidate[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('{', index);
    if (open < 0) break;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let close = -1;
    for (let cursor = open; cursor < text.length; cursor++) {
      const char = text[cursor];
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        close = cursor;
        break;
      }
    }
    if (close < 0) {
      // Unbalanced: keep the rest as one candidate so the parse error can be reported.
      spans.push({ text: text.slice(open), start: offset + open, end: offset + text.length });
      break;
    }
    spans.push({ text: text.slice(open, close + 1), start: offset + open, end: offset + close + 1 });
    index = close + 1;
  }
  return spans;
}

function candidates(text: string): Candidate[] {
  const found: Candidate[] = [];
  const fence = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/g;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    const body = match[1] ?? '';
    if (body.trim().startsWith('{')) {
      found.push({ text: body.trim(), start: match.index, end: match.index + match[0].length });
    }
    if (match[0].length === 0) fence.lastIndex++;
  }
  const outsideFences = found.length > 0 ? [] : objectSpans(text, 0);
  return [...found, ...outsideFences];
}

const mentionsEnvelope = /["']mcp["']\s*:/;

export function parseEnvelope(text: string): EnvelopeParse {
  if (!text.includes('{')) return { kind: 'none' };
  let firstError: string | undefined;
  for (const candidate of candidates(text)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate.text);
    } catch (error) {
      if (mentionsEnvelope.test(candidate.text) && firstError === undefined) {
        firstError = `the tool-call JSON is not valid (${(error as Error).message})`;
      }
      continue;
    }
    const envelope = envelopeSchema.safeParse(value);
    if (!envelope.success || (envelope.data.mcp === undefined && envelope.data.response === undefined)) continue;
    const prose = (text.slice(0, candidate.start) + text.slice(candidate.end)).trim();
    if (envelope.data.mcp === undefined) {
      return { kind: 'envelope', response: envelope.data.response, call: undefined, prose };
    }
    const call = callSchema.safeParse(envelope.data.mcp);
    if (!call.success) {
      const problems = call.error.issues.map((issue) => `mcp.${issue.path.join('.')}: ${issue.message}`).join('; ');
      return { kind: 'malformed', error: `the "mcp" object is not a valid tool call (${problems})`, prose };
    }
    return {
      kind: 'envelope',
      response: envelope.data.response,
      call: { tool: call.data.tool, method: call.data.method, params: call.data.params ?? {} },
      prose,
    };
  }
  if (firstError !== undefined) return { kind: 'malformed', error: firstError, prose: text.trim() };
  return { kind: 'none' };
}

/**
 * Maps an envelope call onto a registered tool name: `<tool>__<method>` (an
 * MCP server and its tool), then `method`, then `tool`.
 */
export function resolveEnvelopeTool(call: EnvelopeCall, toolNames: ReadonlySet<string>): string | undefined {
  const options = [call.method ? `${call.tool}__${call.method}` : undefined, call.method, call.tool];
  return options.find((name): name is string => name !== undefined && toolNames.has(name));
}
