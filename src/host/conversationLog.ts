// The on-disk form of one conversation: JSON Lines, appended to and never
// rewritten during a run. The first line is a header, then one line per
// compacted event. A line cut short by a crash is dropped on reading (and cut
// off the file before the next append), so a crash loses at most that line.
import type { AgentEvent } from '../protocol/agentEvents';

export interface ConversationHeader {
  readonly tandemConversation: 1;
  readonly id: string;
  readonly title: string;
  readonly createdAt: number;
}

/** Tool output kept on disk per result; the panel and the next run see the rest while the window lives. */
export const maxStoredToolOutput = 100_000;

export function headerLine(header: ConversationHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/** One line per event; a huge tool result is cut so the file stays proportional to what a person reads. */
export function eventLines(events: readonly AgentEvent[]): string {
  let text = '';
  for (const event of events) text += `${JSON.stringify(capped(event))}\n`;
  return text;
}

function capped(event: AgentEvent): AgentEvent {
  const content = event.type === 'TOOL_CALL_RESULT' ? event['content'] : undefined;
  if (typeof content !== 'string' || content.length <= maxStoredToolOutput) return event;
  const dropped = content.length - maxStoredToolOutput;
  return { ...event, content: `${content.slice(0, maxStoredToolOutput)}\n[${dropped} more characters not stored]` } as AgentEvent;
}

export interface ParsedLog {
  readonly header: ConversationHeader;
  readonly events: AgentEvent[];
  /** Bytes of whole, readable lines; anything after them is a torn write. */
  readonly validBytes: number;
}

/**
 * Reads a log; undefined when it has no header for `id`. Lines before the
 * header (stray bytes put in front of it) and unreadable lines after it (a
 * torn write followed by later appends) are skipped; a last line without its
 * newline is a torn write and not counted in `validBytes`.
 */
export function parseLog(text: string, id: string): ParsedLog | undefined {
  let header: ConversationHeader | undefined;
  const events: AgentEvent[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    const value = parseLine(text.slice(start, end));
    start = end + 1;
    if (!header) {
      const candidate = value as Partial<ConversationHeader> | undefined;
      if (candidate?.tandemConversation === 1 && candidate.id === id) header = candidate as ConversationHeader;
      // Another conversation's header is not this one's file.
      else if (candidate?.tandemConversation === 1) return undefined;
    } else if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') {
      events.push(value as AgentEvent);
    }
  }
  return header ? { header, events, validBytes: Buffer.byteLength(text.slice(0, start), 'utf8') } : undefined;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
