// Over legacy SSE every answer comes on the one GET event stream, and the
// server's session lives only as long as that stream. When it drops (the
// server crashed, a proxy cut it), the eventsource package reconnects, the
// server opens a new session, and the SDK quietly posts there from then on:
// the old session's requests are never answered (each waits out its timeout),
// and the new session was never initialized (a server that checks refuses
// everything). So the stream's first error once the session is open ends it:
// each request still waiting gets an error reply through the transport's own
// message path (the SDK ends it as any error reply), then the transport is
// closed, which the connection takes for a stopped server and restarts,
// handshake and all.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { streamClosedReply, type RequestId } from './streamClosedReply';

export interface EventStreamDropOptions {
  /** Whether a transport error is the event stream's (not a POST's, nor a message that did not parse). */
  readonly isStreamError: (error: Error) => boolean;
  readonly log: (line: string) => void;
  /** Called before the close when no request was waiting. */
  readonly onIdleDrop?: (() => void) | undefined;
}

/**
 * Ends `transport`'s session when its event stream drops. Called before a
 * client connects the transport: the SDK keeps the handlers set here and
 * calls them before its own.
 */
export function endSessionOnEventStreamDrop(transport: Transport, options: EventStreamDropOptions): void {
  /** Requests sent and neither answered nor given up on (a Stop, a timeout). */
  const pending = new Set<RequestId>();
  let open = false;
  let ended = false;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    open = true;
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, sendOptions) => {
    const { request, cancelled } = outgoing(message);
    if (request !== undefined) pending.add(request);
    if (cancelled !== undefined) pending.delete(cancelled);
    try {
      await send(message, sendOptions);
    } catch (error) {
      // A request that could not be sent is failed by the SDK with that error.
      if (request !== undefined) pending.delete(request);
      throw error;
    }
  };
  transport.onmessage = (message) => {
    const id = answered(message);
    if (id !== undefined) pending.delete(id);
  };
  transport.onerror = (error) => {
    // Before the session is open, starting fails with the error itself.
    if (!open || ended || !options.isStreamError(error)) return;
    ended = true;
    // A microtask: the eventsource package schedules its reconnect after this handler, and closing cancels it.
    queueMicrotask(() => {
      // After the SDK's own line with the error.
      options.log(`the SSE event stream dropped: closing the session (requests unanswered: ${pending.size})`);
      if (pending.size === 0) options.onIdleDrop?.();
      for (const id of [...pending]) transport.onmessage?.(streamClosedReply(id, 'event'));
      pending.clear();
      void transport.close();
    });
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    ended = true;
    await close();
  };
}

/** The id of the request a message sends, or of the one its notifications/cancelled gives up on. */
function outgoing(message: JSONRPCMessage): { request?: RequestId; cancelled?: RequestId } {
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
  if (typeof method !== 'string') return {};
  if (isRequestId(id)) return { request: id };
  return method === 'notifications/cancelled' && isRequestId(params?.requestId) ? { cancelled: params.requestId } : {};
}

/** The id a result or error reply answers. */
function answered(message: JSONRPCMessage): RequestId | undefined {
  if ('method' in message || !('result' in message || 'error' in message)) return undefined;
  const { id } = message as { id?: unknown };
  return isRequestId(id) ? id : undefined;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}
