// Pure: says what one tool-phase reply is, so the loop only has to act on it.
//  - toolCalls: native tool calls, or one call in the JSON envelope
//  - final: no tool call (plain text, or an envelope with only `response`)
//  - malformed: an envelope that could not be read, or native tool calls that
//    all lack a tool name
//  - truncated: the reply was cut at the token limit (finish_reason `length`);
//    its tool calls may be incomplete, so none of them run
// Outcomes decided outside the reply (an interrupt by a frontend tool, a stop
// predicate) belong to the loop's StepOutcome, not here.
import type { ModelTurn } from '../models/chatModel';
import { parseEnvelope, resolveEnvelopeTool } from './envelope';
import type { PlannedCall } from './toolExecutor';

interface TurnText {
  /** The reply's text for the user (prose and the envelope's `response`, or the plain text). */
  readonly reply: string;
  readonly viaEnvelope: boolean;
  /** The envelope's `response` field, shown in place of the held-back JSON. */
  readonly response: string | undefined;
}

export type TurnClass =
  | ({ readonly kind: 'toolCalls'; readonly calls: readonly PlannedCall[] } & TurnText)
  | ({ readonly kind: 'final' } & TurnText)
  | ({ readonly kind: 'malformed'; readonly error: string } & TurnText)
  | ({ readonly kind: 'truncated' } & TurnText);

export function classifyTurn(turn: ModelTurn, toolNames: ReadonlySet<string>, iteration: number): TurnClass {
  const cut = turn.finishReason === 'length';
  if (turn.toolCalls.length > 0) {
    const text = { reply: turn.content, viaEnvelope: false, response: undefined };
    if (cut) return { kind: 'truncated', ...text };
    const calls = turn.toolCalls.map((call) => ({ id: call.id, name: call.name, rawArguments: call.arguments }));
    return { kind: 'toolCalls', calls, ...text };
  }
  if (turn.namelessToolCalls) {
    const text = { reply: turn.content, viaEnvelope: false, response: undefined };
    if (cut) return { kind: 'truncated', ...text };
    const calls = turn.namelessToolCalls === 1 ? 'a tool call' : `${turn.namelessToolCalls} tool calls`;
    return { kind: 'malformed', error: `the reply held ${calls} with no tool name`, ...text };
  }
  const parsed = parseEnvelope(turn.content);
  if (parsed.kind === 'none') return { kind: cut ? 'truncated' : 'final', reply: turn.content, viaEnvelope: false, response: undefined };
  if (parsed.kind === 'malformed') {
    const text = { reply: parsed.prose, viaEnvelope: true, response: undefined };
    return cut ? { kind: 'truncated', ...text } : { kind: 'malformed', error: parsed.error, ...text };
  }
  const text = { reply: [parsed.prose, parsed.response].filter(Boolean).join('\n'), viaEnvelope: true, response: parsed.response };
  if (cut) return { kind: 'truncated', ...text };
  if (!parsed.call) return { kind: 'final', ...text };
  const name = resolveEnvelopeTool(parsed.call, toolNames) ?? [parsed.call.tool, parsed.call.method].filter(Boolean).join('__');
  return { kind: 'toolCalls', calls: [{ id: `envelope-${iteration}`, name, rawArguments: JSON.stringify(parsed.call.params) }], ...text };
}
