// Where the panel is in a conversation's event stream, so a reopened view is
// sent only what it lacks. The host's compacted events only ever grow at the
// end: a new event is pushed, or the last one grows (a longer delta) or, for
// usage, is replaced by newer figures. So "count events, the last one's delta
// this long" names a point in the stream exactly; `stream` names the host's
// copy (a new one after a reload or reopening from disk, when counts may differ).
import type { AgentEvent } from './agentEvents';

export interface StreamPosition {
  /** The host's copy of the conversation this position is in. */
  readonly stream: string;
  /** Events seen. */
  readonly count: number;
  /** Characters of the last event's delta seen (0 when it has none). */
  readonly tail: number;
}

export function positionOf(events: readonly AgentEvent[], stream: string): StreamPosition {
  return { stream, count: events.length, tail: deltaLength(events.at(-1)) };
}

/**
 * The events after `position`, or undefined when it is not a point in this
 * stream (then the whole conversation must be sent). The last event seen is
 * sent again as the rest of its delta, or whole when it is a usage update
 * (applying the latest figures twice changes nothing).
 */
export function eventsAfter(events: readonly AgentEvent[], stream: string, position: StreamPosition): AgentEvent[] | undefined {
  if (position.stream !== stream || position.count > events.length || position.count < 0) return undefined;
  if (position.count === 0) return position.tail === 0 ? [...events] : undefined;
  const last = events[position.count - 1]!;
  const length = deltaLength(last);
  if (position.tail > length) return undefined;
  const rest = events.slice(position.count);
  if (position.tail < length) return [{ ...last, delta: (last['delta'] as string).slice(position.tail) } as AgentEvent, ...rest];
  if (last.type === 'CUSTOM' && last['name'] === 'tandem.usage') return [last, ...rest];
  return rest;
}

function deltaLength(event: AgentEvent | undefined): number {
  const delta = event?.['delta'];
  return typeof delta === 'string' ? delta.length : 0;
}
