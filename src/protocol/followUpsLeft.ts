// The messages a window left queued when it went (a reload, a close), stored
// with the conversation as its last save's `tandem.followUpsLeft` event. They
// are still waiting while no question came after that event; an empty one
// says a later window went with none.
import type { AgentEvent } from './agentEvents';
import { HostEventName } from './hostEventNames';

export function followUpsLeft(events: readonly AgentEvent[]): string[] {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!;
    if (event.type !== 'CUSTOM') continue;
    if (event['name'] === HostEventName.userMessage) return [];
    if (event['name'] !== HostEventName.followUpsLeft) continue;
    const texts = (event['value'] as { texts?: unknown } | undefined)?.texts;
    return Array.isArray(texts) ? texts.filter((text): text is string => typeof text === 'string' && text.trim() !== '') : [];
  }
  return [];
}
