// A request whose answer can no longer come (the stream it would come on
// closed first) is ended with an error reply Tandem makes itself, handed to
// the transport's reader as if the server had sent it, so the SDK ends the
// request as it would any error reply. The caller then tells that error from
// a server's by its `data` object.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type RequestId = string | number;

/** Which stream closed: a Streamable HTTP request's own response stream, or legacy SSE's one event stream. */
export type ClosedStream = 'response' | 'event';

/** The MCP SDK's code for a closed connection. */
const CONNECTION_CLOSED = -32000;

/**
 * The `data` objects of the replies made here. The SDK hands an error's data to the caller as it came, so a
 * server could send the same fields; only these very objects are Tandem's.
 */
const made = new WeakSet<object>();

/** The error reply that ends request `id`; `resumeFailed`: resuming the stream was tried and failed. */
export function streamClosedReply(id: RequestId, stream: ClosedStream, resumeFailed = false): JSONRPCMessage {
  const data = { stream, resumeFailed };
  made.add(data);
  const message = `The ${stream} stream closed before the server answered${resumeFailed ? ', and resuming it failed' : ''}`;
  return { jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message, data } };
}

/** Whether an error came from such a reply, and if so which stream closed and whether resuming it failed. */
export function streamClosed(error: unknown): { readonly stream: ClosedStream; readonly resumeFailed: boolean } | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || !made.has(data)) return undefined;
  const { stream, resumeFailed } = data as { stream: ClosedStream; resumeFailed: boolean };
  return { stream, resumeFailed };
}
