// Over Streamable HTTP a server answers a request on the SSE stream of its
// POST. When that stream ends without the answer (the server crashed, a proxy
// cut it), the MCP SDK reports "SSE stream disconnected" but leaves the request
// waiting for its timeout: a minute of a run spent on nothing. This watch sits
// in the transport's fetch, reads the same bytes the SDK reads, and answers
// such a request itself with an error, through the transport's own message
// path, so the SDK ends it as it would any error reply.
//
// A stream whose events carry ids can be resumed: the SDK asks again with GET
// and Last-Event-ID, and the answer may come there. Such a request fails only
// once its own grace period has passed with no resumption open or under way
// (longer than the SDK's retries, and than any `retry:` interval the server
// asked for).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { streamClosedReply, type RequestId } from './streamClosedReply';

/** The SDK retries twice, the second 1.5 s after the first. */
const DEFAULT_RESUME_GRACE_MS = 10_000;
/** A server's `retry:` cannot hold a request longer than this. */
const MAX_RESUME_GRACE_MS = 120_000;

export interface ResponseStreamWatchOptions {
  /** Hands a message to the transport's reader, as if the server had sent it. */
  readonly deliver: (message: JSONRPCMessage) => void;
  /** How long a request whose stream can be resumed waits with no resumption open. */
  readonly resumeGraceMs?: number;
  readonly fetch?: typeof fetch;
}

export class ResponseStreamWatch {
  /** Requests whose stream ended unanswered but could be resumed, each with the time it may wait until. */
  private readonly awaitingResumption = new Map<RequestId, number>();
  /** Requests answered (or cancelled) on any stream this watch read. */
  private readonly answered = new Set<RequestId>();
  /** Resumptions asked for or streaming: from the GET's start to its stream's end. */
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
    // A resumption counts as open while it is asked for, not only once it streams: a slow one still may answer.
    if (resumption) this.openResumptions++;
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      if (resumption) this.resumptionClosed();
      throw error;
    }
    const isStream = mediaType(response.headers.get('content-type')) === 'text/event-stream';
    if (!response.ok || !response.body || !isStream) {
      if (resumption) this.resumptionClosed();
      return response;
    }
    return new Response(this.watched(response.body, requests, resumption, init?.signal ?? undefined), { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.awaitingResumption.clear();
  }

  /** The same bytes, read as SSE events on the way through (every stream: any may set `retry:` or carry an answer). */
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
        const deadline = Date.now() + this.graceMs();
        for (const id of unanswered) this.awaitingResumption.set(id, deadline);
        this.schedule();
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
            if (event.retryMs !== undefined) this.serverRetryMs = event.retryMs;
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
        if (!ended && resumption) this.resumptionClosed();
        ended = true;
        await reader.cancel(reason);
      },
    });
  }

  private graceMs(): number {
    return Math.min(MAX_RESUME_GRACE_MS, Math.max(this.options.resumeGraceMs ?? DEFAULT_RESUME_GRACE_MS, this.serverRetryMs * 3 + 5_000));
  }

  private noteAnswered(id: RequestId): void {
    this.answered.add(id);
    this.awaitingResumption.delete(id);
    // Ids are never reused within a session; the set only needs to outlive the streams in flight.
    if (this.answered.size > 1_000) this.answered.delete(this.answered.values().next().value as RequestId);
  }

  private resumptionClosed(): void {
    this.openResumptions = Math.max(0, this.openResumptions - 1);
    this.schedule();
  }

  /** Wakes at the earliest deadline of the requests waiting for a resumption. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.disposed || this.awaitingResumption.size === 0) return;
    const earliest = Math.min(...this.awaitingResumption.values());
    this.timer = setTimeout(() => this.expire(), Math.max(0, earliest - Date.now()));
    this.timer.unref?.();
  }

  private expire(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const [id, deadline] of [...this.awaitingResumption]) {
      if (deadline > now) continue;
      // A resumption open or under way may still bring it: it gets another grace period from now.
      if (this.openResumptions > 0) this.awaitingResumption.set(id, now + this.graceMs());
      else this.fail(id, true);
    }
    this.schedule();
  }

  private fail(id: RequestId, resumeFailed: boolean): void {
    this.awaitingResumption.delete(id);
    if (this.disposed || this.answered.has(id)) return;
    this.answered.add(id);
    this.options.deliver(streamClosedReply(id, 'response', resumeFailed));
  }
}

/** `text/event-stream` of `Text/Event-Stream; charset=utf-8`, as the SDK compares it. */
function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
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
function answeredId(data: string): RequestId | undefined {
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
  /** A non-empty id: what makes the SDK resume the stream. */
  readonly id: string | undefined;
  readonly data: string;
  readonly retryMs: number | undefined;
}

/**
 * Server-sent events from bytes in any chunking, as the SDK's parser reads
 * them: an event is dispatched only when it has a data line, and only a
 * non-empty id without NUL counts. Linear in the bytes: only a new chunk is
 * searched for line breaks, and a long line is kept in pieces until it ends.
 */
export class SseEventReader {
  private readonly decoder = new TextDecoder();
  /** Pieces of the line still arriving. */
  private line: string[] = [];
  /** The last chunk ended in \r, which may be half of \r\n. */
  private afterCr = false;
  private id: string | undefined;
  private data: string[] | undefined;
  private retryMs: number | undefined;

  push(chunk: Uint8Array): SseEvent[] {
    const text = this.decoder.decode(chunk, { stream: true });
    const events: SseEvent[] = [];
    let start = 0;
    if (this.afterCr && text.startsWith('\n')) start = 1;
    this.afterCr = false;
    for (let index = start; index < text.length; index++) {
      const char = text.charCodeAt(index);
      if (char !== 10 && char !== 13) continue;
      this.line.push(text.slice(start, index));
      this.endLine(this.line.join(''), events);
      this.line = [];
      if (char === 13) {
        if (index + 1 === text.length) this.afterCr = true;
        else if (text.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
    }
    if (start < text.length) this.line.push(text.slice(start));
    return events;
  }

  private endLine(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data !== undefined) events.push({ id: this.id, data: this.data.join('\n'), retryMs: this.retryMs });
      else if (this.retryMs !== undefined) events.push({ id: undefined, data: '', retryMs: this.retryMs });
      this.id = undefined;
      this.data = undefined;
      this.retryMs = undefined;
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') (this.data ??= []).push(value);
    else if (field === 'id') this.id = value !== '' && !value.includes('\u0000') ? value : undefined;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}
