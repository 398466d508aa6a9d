// Over Streamable HTTP a server answers a request on the SSE stream of its
// POST. When that stream ends without the answer (the server crashed, a proxy
// cut it), the MCP SDK reports "SSE stream disconnected" but leaves the request
// waiting for its timeout: a minute of a run spent on nothing. This watch sits
// in the transport's fetch, reads the same bytes the SDK reads, and answers
// such a request itself with an error, through the transport's own message
// path, so the SDK ends it as it would any error reply.
//
// A stream whose events carry ids can be resumed: the SDK asks again with GET
// and Last-Event-ID, and the answer may come there. Those requests fail only
// once no resumption has been open for a while (longer than the SDK's
// retries, and than any `retry:` interval the server asked for).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type RequestId = string | number;

/** The MCP SDK's code for a closed connection. */
const CONNECTION_CLOSED = -32000;

/** In the error's data: the request ended because its response stream closed unanswered (see `responseStreamClosed`). */
const REASON = 'tandem/responseStreamClosed';

/** Whether an error is this watch's, and if so whether resuming the stream was tried and failed. */
export function responseStreamClosed(error: unknown): { readonly resumeFailed: boolean } | undefined {
  const data = (error as { data?: unknown } | null)?.data as { reason?: unknown; resumeFailed?: unknown } | undefined;
  return data?.reason === REASON ? { resumeFailed: data.resumeFailed === true } : undefined;
}

export interface ResponseStreamWatchOptions {
  /** Hands a message to the transport's reader, as if the server had sent it. */
  readonly deliver: (message: JSONRPCMessage) => void;
  /** How long requests whose stream can be resumed wait with no resumption open. */
  readonly resumeGraceMs?: number;
  readonly fetch?: typeof fetch;
}

export class ResponseStreamWatch {
  /** Requests whose stream ended unanswered but could be resumed. */
  private readonly awaitingResumption = new Set<RequestId>();
  /** Requests answered on any stream this watch read. */
  private readonly answered = new Set<RequestId>();
  private openResumptions = 0;
  private serverRetryMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly options: ResponseStreamWatchOptions) {}

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const base = this.options.fetch ?? fetch;
    const method = (init?.method ?? 'GET').toUpperCase();
    const resumption = method === 'GET' && new Headers(init?.headers).has('last-event-id');
    const requests = method === 'POST' ? requestIds(init?.body) : [];
    // A request the client cancelled (Stop, its timeout) waits for nothing more: its stream may end unanswered.
    if (method === 'POST') for (const id of cancelledIds(init?.body)) this.noteAnswered(id);
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      if (resumption) this.check();
      throw error;
    }
    const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (!response.ok || !response.body || !isStream || (requests.length === 0 && !resumption)) {
      if (resumption) this.check();
      return response;
    }
    if (resumption) this.resumptionOpened();
    return new Response(this.watched(response.body, requests, resumption, init?.signal ?? undefined), { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.awaitingResumption.clear();
  }

  /** The same bytes, read as SSE events on the way through. */
  private watched(body: ReadableStream<Uint8Array>, requests: readonly RequestId[], resumption: boolean, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const events = new SseEventReader();
    let resumable = false;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (resumption) this.resumptionClosed();
      // The transport closed it (the session is closing): the SDK ends what waited.
      if (signal?.aborted) return;
      const unanswered = requests.filter((id) => !this.answered.has(id));
      if (unanswered.length === 0) return;
      if (resumable) {
        for (const id of unanswered) this.awaitingResumption.add(id);
        this.check();
      } else {
        for (const id of unanswered) this.fail(id, false);
      }
    };
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            end();
            return;
          }
          for (const event of events.push(value)) {
            if (event.id !== undefined) resumable = true;
            if (event.retryMs !== undefined) this.serverRetryMs = Math.max(this.serverRetryMs, event.retryMs);
            const answer = answeredId(event.data);
            if (answer !== undefined) this.noteAnswered(answer);
          }
          controller.enqueue(value);
        } catch (error) {
          controller.error(error);
          end();
        }
      },
      // The SDK let go of the stream (it closed the transport): nothing is waiting on it.
      cancel: async (reason) => {
        ended = true;
        if (resumption) this.resumptionClosed();
        await reader.cancel(reason);
      },
    });
  }

  private noteAnswered(id: RequestId): void {
    this.answered.add(id);
    this.awaitingResumption.delete(id);
    // Ids are never reused within a session; the set only needs to outlive the streams in flight.
    if (this.answered.size > 1_000) this.answered.delete(this.answered.values().next().value as RequestId);
  }

  private resumptionOpened(): void {
    this.openResumptions++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private resumptionClosed(): void {
    this.openResumptions = Math.max(0, this.openResumptions - 1);
    this.check();
  }

  /** Starts the grace period while requests wait for a resumption and none is open. */
  private check(): void {
    if (this.disposed || this.awaitingResumption.size === 0 || this.openResumptions > 0 || this.timer !== undefined) return;
    // The SDK retries twice, the second 1.5 s after the first; a server may ask for longer between tries.
    const grace = Math.max(this.options.resumeGraceMs ?? 10_000, this.serverRetryMs * 3 + 5_000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.openResumptions > 0) return;
      for (const id of [...this.awaitingResumption]) this.fail(id, true);
    }, grace);
    this.timer.unref?.();
  }

  private fail(id: RequestId, resumeFailed: boolean): void {
    this.awaitingResumption.delete(id);
    if (this.disposed || this.answered.has(id)) return;
    this.answered.add(id);
    const message = `The response stream closed before the server answered${resumeFailed ? ', and resuming it failed' : ''}`;
    this.options.deliver({ jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message, data: { reason: REASON, resumeFailed } } });
  }
}

/** The ids of the requests (not notifications, not responses) in a POST body. */
function requestIds(body: unknown): RequestId[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((message) => {
    if (!message || typeof message !== 'object') return [];
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/** The ids of the requests a POST body's notifications/cancelled give up on. */
function cancelledIds(body: unknown): RequestId[] {
  if (typeof body !== 'string' || !body.includes('notifications/cancelled')) return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message) => {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: { requestId?: unknown } };
      const id = params?.requestId;
      return method === 'notifications/cancelled' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
    });
  } catch {
    return [];
  }
}

/** The id a result or error reply in an event's data answers. */
function answeredId(data: string | undefined): RequestId | undefined {
  if (!data) return undefined;
  try {
    const message = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
    if (message.method !== undefined || (!('result' in message) && !('error' in message))) return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}

interface SseEvent {
  readonly id: string | undefined;
  readonly data: string | undefined;
  readonly retryMs: number | undefined;
}

/** Server-sent events from bytes in any chunking: the fields this watch needs (id, data, retry). */
class SseEventReader {
  private readonly decoder = new TextDecoder();
  private pending = '';
  private id: string | undefined;
  private data: string[] = [];
  private retryMs: number | undefined;

  push(chunk: Uint8Array): SseEvent[] {
    let text = this.pending + this.decoder.decode(chunk, { stream: true });
    // A \r at the end may be the first half of \r\n: it waits for the next chunk.
    const held = text.endsWith('\r') ? '\r' : '';
    if (held) text = text.slice(0, -1);
    const events: SseEvent[] = [];
    const lines = text.split(/\r\n|\r|\n/);
    // The last piece is a line still arriving.
    this.pending = (lines.pop() ?? '') + held;
    for (const line of lines) {
      if (line === '') {
        if (this.id !== undefined || this.data.length > 0 || this.retryMs !== undefined) {
          events.push({ id: this.id, data: this.data.length > 0 ? this.data.join('\n') : undefined, retryMs: this.retryMs });
        }
        this.id = undefined;
        this.data = [];
        this.retryMs = undefined;
        continue;
      }
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.data.push(value);
      else if (field === 'id') this.id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    return events;
  }
}
