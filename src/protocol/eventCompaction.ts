// Compaction of an event stream: consecutive deltas of one message or tool
// call become one event, and only the latest usage figures are kept. The host
// stores and forwards compacted events; the panel keeps its copy the same way.
import type { AgentEvent } from './agentEvents';

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
      events[events.length - 1] = { ...last, delta: String(last['delta'] ?? '') + String(event['delta'] ?? '') };
      return;
    }
    if (event.type === 'CUSTOM' && event['name'] === 'tandem.usage' && last['name'] === 'tandem.usage') {
      events[events.length - 1] = event;
      return;
    }
  }
  events.push(event);
}
