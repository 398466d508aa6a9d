// Compaction of an event stream: consecutive deltas of one message or tool
// call become one event, and only the latest usage figures are kept. The host
// stores and forwards compacted events; the panel keeps its copy the same way.
import type { AgentEvent } from './agentEvents';

/**
 * Merged events this module made. An event as emitted may sit in several
 * lists at once (the stored conversation and the panel's queue), so the first
 * merge into it makes a copy; the copy is held by that list alone, and later
 * deltas are added to it in place instead of copying it once more per delta.
 */
const ownCopies = new WeakSet<AgentEvent>();

/**
 * Appends an event, merging a delta into the previous one when both continue
 * the same message or tool call, and keeping only the latest usage figures:
 * a stored conversation replays the same but is far smaller than the stream.
 */
export function appendCompacted(events: AgentEvent[], event: AgentEvent, sealed = 0): void {
  // Events before `sealed` are already on disk: never merge into them.
  const last = events.length > sealed ? events[events.length - 1] : undefined;
  if (last && last.type === event.type) {
    const mergeable =
      event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'REASONING_MESSAGE_CONTENT'
        ? last['messageId'] === event['messageId']
        : event.type === 'TOOL_CALL_ARGS'
          ? last['toolCallId'] === event['toolCallId']
          : false;
    if (mergeable) {
      const delta = String(last['delta'] ?? '') + String(event['delta'] ?? '');
      if (ownCopies.has(last)) {
        last['delta'] = delta;
        return;
      }
      const merged: AgentEvent = { ...last, delta };
      ownCopies.add(merged);
      events[events.length - 1] = merged;
      return;
    }
    if (event.type === 'CUSTOM' && event['name'] === 'tandem.usage' && last['name'] === 'tandem.usage') {
      events[events.length - 1] = event;
      return;
    }
  }
  events.push(event);
}
