// One configured MCP server: starts it, keeps its status and tool list, calls
// its tools, and restarts it once (after a delay) when it dies unexpectedly.
import type { McpRoot } from './mcpRoots';
import { maskUrlsIn } from './mcpRedaction';
import { CancelledError, ConfigurationError } from '../common/errors';
import type { ToolContext, ToolResult } from '../tools/tool';
import type { ElicitationHandler } from '../tools/elicitation';
import { SamplingRefused, type SamplingHandler } from '../tools/sampling';
import { definitionStamp, needsConsent } from './mcpServerTrust';
import { isRecord } from './isRecord';
import type { McpServerDefinition } from './mcpConfig';
import type { McpServerState, McpServerStatus } from './mcpServerStatus';
import { SignInRequiredError } from './mcpAuthRetry';
import { withRequestSignal } from './mcpRequestSignal';
import { describeError, isOversizedMessage, openSession, STDIO_MESSAGE_BYTES, type ClientIdentity, type McpSession, type SessionServices } from './mcpSession';
import { streamClosed } from './streamClosedReply';
import { errorResult, toToolResult } from './mcpToolResult';
import { listPrompts, promptText, type McpPromptInfo } from './mcpPrompts';
import { listResources, readResourceText, type McpResourceInfo } from './mcpResources';
import { resolveServer } from './mcpServerResolution';
import type { InputResolver } from './mcpVariables';
import { isSchemaRejection, LENIENT_CALL_RESULT, LENIENT_TOOL_PAGE, rejectionSummary, taskRequired, toolFromRaw, type McpToolInfo, type ToolListPage } from './mcpToolList';
import { byteSize } from '../common/byteSize';

export type { McpToolInfo } from './mcpToolList';

export interface McpConnectionOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputResolver: InputResolver | undefined;
  readonly identity: ClientIdentity;
  readonly defaultTimeoutMs: number;
  /** Limit for the MCP handshake and each tools/list. */
  readonly startTimeoutMs: number;
  /** Delay before the one automatic restart after a crash. */
  readonly restartDelayMs: number;
  /** See McpHubOptions.idleCutMinSessionMs. */
  readonly idleCutMinSessionMs?: number | undefined;
  readonly log: (line: string) => void;
  /** Called whenever the status or the tool list changes. */
  readonly onDidChange: () => void;
  /** Sign-in and elicitation for this server (absent: neither is offered). */
  readonly services?: ((definition: McpServerDefinition) => Omit<SessionServices, 'serverName'>) | undefined;
  /** The workspace's folders, offered to every server as roots (absent: roots are not offered). */
  readonly roots?: (() => readonly McpRoot[]) | undefined;
}

const STDERR_LINES = 20;
const MAX_TOOL_PAGES = 50;
/** A call that keeps reporting progress still ends after this many times its timeout. */
const TOTAL_TIMEOUT_FACTOR = 10;
/** At most one automatic restart in this window; a second crash inside it stays an error. */
const RESTART_WINDOW_MS = 60_000;
/** An idle SSE stream cut counts as no crash only after the session worked this long. */
const IDLE_CUT_MIN_SESSION_MS = 10_000;
// JSON-RPC error codes the SDK uses (ErrorCode in its types; not imported to keep loading lazy).
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

export class McpConnection {
  private state: McpServerState = 'stopped';
  private transportKind: McpServerStatus['transport'];
  private error: string | undefined;
  private stderrTail: string[] = [];
  /** Lines the server has written to stderr: a failed call quotes only those written since it began. */
  private stderrLines = 0;
  /** Tandem closed the connection: the server sent a message larger than STDIO_MESSAGE_BYTES. */
  private closedForSize = false;
  /** The last message from the server that was not valid MCP (a reply the SDK could not take), and when. */
  private unreadable: { readonly at: number; readonly what: string } | undefined;
  /** The first thing a stdio server wrote on stdout that is not JSON-RPC, while starting: why a handshake times out. */
  private notMcpOutput: string | undefined;
  private toolList: readonly McpToolInfo[] = [];
  private promptList: readonly McpPromptInfo[] = [];
  private resourceList: readonly McpResourceInfo[] = [];
  private session: McpSession | undefined;
  /** Bumped on every start and stop; events from an older session are ignored. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  private startAbort: AbortController | undefined;
  /** An automatic restart waiting out its delay; `wake` ends the wait when it is cancelled. */
  private pendingRestart: { readonly timer: ReturnType<typeof setTimeout>; readonly wake: () => void } | undefined;
  private lastAutoRestart = Number.NEGATIVE_INFINITY;
  /** When the session now ending was connected, and whether its SSE stream dropped idle (no crash: a proxy's cut). */
  private connectedAt = 0;
  private idleStreamDrop = false;
  /** Calls in flight, newest last: a server's question during a call goes to that call's run. */
  private readonly inflight: ToolContext[] = [];

  constructor(
    readonly definition: McpServerDefinition,
    private readonly options: McpConnectionOptions,
  ) {}

  get key(): string {
    return connectionKey(this.definition.name, this.definition.source);
  }

  get status(): McpServerStatus {
    return {
      name: this.definition.name,
      state: this.state,
      transport: this.transportKind,
      toolCount: this.state === 'connected' ? this.toolList.length : undefined,
      error: this.error,
      stderrTail: [...this.stderrTail],
      source: this.definition.source,
    };
  }

  get tools(): readonly McpToolInfo[] {
    return this.state === 'connected' ? this.toolList : [];
  }

  /** The server's prompts (slash commands in the prompt box); empty unless connected. */
  get prompts(): readonly McpPromptInfo[] {
    return this.state === 'connected' ? this.promptList : [];
  }

  /** A prompt filled in with `args`, as text. */
  async getPrompt(name: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<string> {
    const session = this.session;
    if (session === undefined || this.state !== 'connected') throw new Error(`MCP server "${this.definition.name}" is not running.`);
    return withRequestSignal(signal, (requestSignal) => session.authorized(() => promptText(session, name, args, this.timeoutMs, requestSignal), requestSignal));
  }

  /** The server's listed resources (attachable as context); empty unless connected. */
  get resources(): readonly McpResourceInfo[] {
    return this.state === 'connected' ? this.resourceList : [];
  }

  /** One resource's contents as text. */
  async readResource(uri: string, signal: AbortSignal): Promise<string> {
    const session = this.session;
    if (session === undefined || this.state !== 'connected') throw new Error(`MCP server "${this.definition.name}" is not running.`);
    return withRequestSignal(signal, (requestSignal) => session.authorized(() => readResourceText(session, uri, this.timeoutMs, requestSignal), requestSignal));
  }

  /** Resolves once the server is no longer starting (connected, failed or stopped), or when `signal` aborts. */
  async settled(signal?: AbortSignal): Promise<void> {
    let waited: Promise<void> | undefined;
    // A start may be replaced by another (a restart during the wait): wait for the newest, once each.
    while (this.state === 'starting' && this.starting !== undefined && this.starting !== waited && signal?.aborted !== true) {
      waited = this.starting;
      await (signal === undefined ? waited : untilDoneOrAborted(waited, signal));
    }
  }

  get processId(): number | undefined {
    return this.session?.processId;
  }

  /** The workspace's folders changed: a connected server hears it and asks for the roots again. */
  async rootsChanged(): Promise<void> {
    const session = this.session;
    if (session === undefined || this.state !== 'connected') return;
    await session.rootsChanged().catch((error: unknown) => this.options.log(`${this.definition.name}: telling it the roots changed failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Starts (or restarts) the server. Never rejects: a failure becomes the error status. */
  start(): Promise<void> {
    this.cancelRestart();
    const generation = ++this.generation;
    this.startAbort?.abort();
    const abort = new AbortController();
    this.startAbort = abort;
    const previous = this.session;
    this.session = undefined;
    const run = (async () => {
      await previous?.close();
      if (generation === this.generation) await this.connect(generation, abort.signal);
    })();
    this.starting = run;
    return run;
  }

  /** Ends the server; `disabled` keeps it down until enabled again. */
  async stop(state: 'stopped' | 'disabled' = 'stopped'): Promise<void> {
    this.cancelRestart();
    this.generation++;
    this.startAbort?.abort();
    const session = this.session;
    this.session = undefined;
    this.toolList = [];
    this.error = undefined;
    this.setState(state);
    await session?.close();
  }

  async callTool(toolName: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    if (context.signal.aborted) throw new CancelledError();
    await this.settled(context.signal);
    if (context.signal.aborted) throw new CancelledError();
    const session = this.session;
    const serverName = this.definition.name;
    if (session === undefined || this.state !== 'connected') {
      return errorResult(`MCP server "${serverName}" is not running${this.error === undefined ? '' : `: ${this.error.replace(/\.+$/, '')}`}.`);
    }
    const timeoutMs = this.timeoutMs;
    const stderrBefore = this.stderrLines;
    const startedAt = Date.now();
    this.inflight.push(context);
    try {
      const result = await withRequestSignal(context.signal, (signal) =>
        session.authorized(
          () =>
            // Read leniently: the tool has run, so one block the MCP schema refuses (bad base64, an unknown type)
            // must not throw the whole result away; toToolResult takes each block on its own.
            session.client.request({ method: 'tools/call', params: { name: toolName, arguments: isRecord(args) ? args : {} } }, LENIENT_CALL_RESULT, {
              signal,
              timeout: timeoutMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: timeoutMs * TOTAL_TIMEOUT_FACTOR,
              onprogress: (progress) => context.onProgress?.({ progress: progress.progress, total: progress.total, message: progress.message }),
            }),
          signal,
        ),
      );
      return toToolResult(result);
    } catch (error) {
      if (context.signal.aborted) throw new CancelledError();
      const code = (error as { code?: unknown }).code;
      if (code === REQUEST_TIMEOUT) {
        // A reply the SDK could not read never reaches its call, which then times out: say what came instead.
        const unreadable = this.unreadable !== undefined && this.unreadable.at >= startedAt ? this.unreadable.what : undefined;
        if (unreadable !== undefined) {
          return errorResult(`MCP server "${serverName}" sent no reply to "${toolName}" that Tandem could read within ${formatSeconds(timeoutMs)}; meanwhile it sent a message that is not valid MCP (${unreadable}; the Tandem log has the details).`);
        }
        return errorResult(`MCP server "${serverName}" did not answer "${toolName}" within ${formatSeconds(timeoutMs)} (no progress either), or kept going past ${formatSeconds(timeoutMs * TOTAL_TIMEOUT_FACTOR)} in all.`);
      }
      if (error instanceof SignInRequiredError) {
        return errorResult(`MCP server "${serverName}": "${toolName}" needs sign-in: ${error.message}`);
      }
      const dropped = streamClosed(error);
      if (dropped !== undefined) {
        return errorResult(
          `MCP server "${serverName}" did not answer "${toolName}": the ${dropped.stream} stream closed first${dropped.resumeFailed ? ' and could not be resumed' : ''} (the server stopped, or the connection dropped). The tool may or may not have run.`,
        );
      }
      if (code === CONNECTION_CLOSED || session !== this.session) {
        if (this.closedForSize) {
          return errorResult(
            `MCP server "${serverName}" answered "${toolName}" with more than ${byteSize(STDIO_MESSAGE_BYTES)}, more than Tandem reads; the connection was closed and the server restarts. Ask the tool for less (a narrower query, a smaller page).`,
          );
        }
        const since = Math.min(5, this.stderrLines - stderrBefore, this.stderrTail.length);
        const tail = since > 0 ? this.stderrTail.slice(-since) : [];
        return errorResult(`MCP server "${serverName}" stopped during the call to "${toolName}".${tail.length > 0 ? ` Its last output:\n${tail.join('\n')}` : ''}`);
      }
      return errorResult(`MCP server "${serverName}": "${toolName}" failed: ${describeError(error)}`);
    } finally {
      this.inflight.splice(this.inflight.indexOf(context), 1);
    }
  }

  /** A server's question: to the newest call in flight whose run can ask, else the hub's handler, else declined. */
  private readonly elicit: ElicitationHandler = (request, signal) => {
    const asker = [...this.inflight].reverse().find((context) => context.elicit !== undefined)?.elicit;
    const fallback = this.options.services?.(this.definition).elicitation;
    const handler = asker ?? fallback;
    if (handler === undefined) return Promise.resolve({ action: 'decline' });
    return handler(request, signal);
  };

  /** A server's request for the model: to the newest call in flight whose run can lend it, else refused. */
  private readonly sample: SamplingHandler = (request, signal) => {
    const sampler = [...this.inflight].reverse().find((context) => context.sample !== undefined)?.sample;
    if (sampler === undefined) return Promise.reject(new SamplingRefused('Tandem lends its model only during a tool call of one of its runs.'));
    const definition = this.definition;
    const fromWorkspace = definition.type !== 'invalid' && needsConsent(definition);
    return sampler({ ...request, allowAs: fromWorkspace ? `${definition.name}@${definitionStamp(definition)}` : definition.name }, signal);
  };

  async dispose(): Promise<void> {
    await this.stop('stopped');
  }

  private get timeoutMs(): number {
    return this.definition.timeoutMs ?? this.options.defaultTimeoutMs;
  }

  private async connect(generation: number, signal: AbortSignal): Promise<void> {
    const definition = this.definition;
    this.error = undefined;
    this.stderrTail = [];
    this.closedForSize = false;
    this.notMcpOutput = undefined;
    this.toolList = [];
    this.transportKind = definition.type === 'invalid' ? undefined : definition.type;
    this.setState('starting');
    let session: McpSession | undefined;
    try {
      if (definition.type === 'invalid') throw new ConfigurationError(definition.error);
      const server = await resolveServer(definition, this.options.env, this.options.inputResolver, signal);
      const services = { serverName: definition.name, ...this.options.services?.(definition), elicitation: this.elicit, sampling: definition.sampling === false ? undefined : this.sample, roots: offersRoots(definition) ? this.options.roots : undefined };
      session = await openSession(server, this.options.identity, this.hooks(generation), this.options.startTimeoutMs, signal, services);
      if (generation !== this.generation) {
        await session.close();
        return;
      }
      this.session = session;
      this.transportKind = session.transport;
      this.toolList = await this.listTools(session, signal);
      this.promptList = await this.readPrompts(session, signal);
      const opened = session;
      this.resourceList = await this.readListing('resources', () => listResources(opened, this.options.startTimeoutMs, signal));
      if (generation !== this.generation) return;
      this.connectedAt = Date.now();
      this.idleStreamDrop = false;
      this.setState('connected');
      this.options.log(`MCP server "${definition.name}" connected over ${session.transport} with ${this.toolList.length} tools`);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.session === session) this.session = undefined;
      await session?.close();
      // Past the handshake, a failure is the listing's (tools, prompts, resources), and is said to be.
      const stage: StartStage = session === undefined ? { during: 'during the MCP handshake', answering: 'the MCP handshake' } : { during: 'after the handshake, while Tandem listed its tools', answering: 'tools/list' };
      this.error = describeStartError(definition, error, this.options.startTimeoutMs, this.stderrTail, this.notMcpOutput, stage);
      this.setState(error instanceof SignInRequiredError ? 'signInRequired' : 'error');
      this.options.log(`MCP server "${definition.name}" failed to start: ${this.error}`);
    }
  }

  private hooks(generation: number): Parameters<typeof openSession>[2] {
    const current = (): boolean => generation === this.generation;
    // Refreshes of one list can overlap (a slow answer, then another change): only the newest request's answer is kept.
    const newest = { tools: 0, prompts: 0, resources: 0 };
    const refresh = (list: keyof typeof newest) => {
      const number = ++newest[list];
      return (): boolean => current() && number === newest[list];
    };
    return {
      onStderrLine: (line) => {
        if (!current()) return;
        this.stderrLines++;
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
        this.options.log(`[${this.definition.name}] ${line}`);
      },
      onTransportError: (error) => {
        if (current() && isOversizedMessage(error)) this.closedForSize = true;
        else if (current() && this.state === 'connected') this.unreadable = { at: Date.now(), what: firstLine(isSchemaRejection(error) ? rejectionSummary(error) : describeError(error), 200) };
        if (current() && this.state === 'starting' && this.notMcpOutput === undefined) this.notMcpOutput = notMcpLine(error);
      },
      onIdleStreamDrop: () => {
        if (current()) this.idleStreamDrop = true;
      },
      onClose: () => {
        if (current() && this.state === 'connected') this.handleCrash();
      },
      onToolListChanged: () => {
        const session = this.session;
        if (!current() || session === undefined || this.state !== 'connected') return;
        const stillNewest = refresh('tools');
        void this.listTools(session, new AbortController().signal).then(
          (tools) => {
            if (!stillNewest() || this.session !== session) return;
            this.toolList = tools;
            this.options.log(`MCP server "${this.definition.name}" changed its tools: now ${tools.length}`);
            this.options.onDidChange();
          },
          (error: unknown) => this.options.log(`MCP server "${this.definition.name}": refreshing tools failed: ${describeError(error)}`),
        );
      },
      onPromptListChanged: () => {
        const session = this.session;
        if (!current() || session === undefined || this.state !== 'connected') return;
        const stillNewest = refresh('prompts');
        void this.readPrompts(session, new AbortController().signal).then((prompts) => {
          if (!stillNewest() || this.session !== session) return;
          this.promptList = prompts;
          this.options.log(`MCP server "${this.definition.name}" changed its prompts: now ${prompts.length}`);
          this.options.onDidChange();
        });
      },
      onResourceListChanged: () => {
        const session = this.session;
        if (!current() || session === undefined || this.state !== 'connected') return;
        const stillNewest = refresh('resources');
        void this.readListing('resources', () => listResources(session, this.options.startTimeoutMs, new AbortController().signal)).then((resources) => {
          if (!stillNewest() || this.session !== session) return;
          this.resourceList = resources;
          this.options.log(`MCP server "${this.definition.name}" changed its resources: now ${resources.length}`);
          this.options.onDidChange();
        });
      },
      log: (line) => this.options.log(`[${this.definition.name}] ${line}`),
    };
  }

  /** A listing the server may not offer well: a failure is logged and counts as an empty list. */
  private async readListing<T>(what: string, list: () => Promise<T[]>): Promise<T[]> {
    try {
      return await list();
    } catch (error) {
      this.options.log(`MCP server "${this.definition.name}": listing ${what} failed: ${describeError(error)}`);
      return [];
    }
  }

  /** The server's prompts; a server whose prompts cannot be listed simply offers none. */
  private async readPrompts(session: McpSession, signal: AbortSignal): Promise<McpPromptInfo[]> {
    try {
      return await withRequestSignal(signal, (requestSignal) => session.authorized(() => listPrompts(session, this.options.startTimeoutMs, requestSignal), requestSignal));
    } catch (error) {
      if (signal.aborted) throw error;
      this.options.log(`MCP server "${this.definition.name}": listing prompts failed: ${describeError(error)}`);
      return [];
    }
  }

  private handleCrash(): void {
    this.session = undefined;
    this.toolList = [];
    // A message too large for Tandem ended the connection, not the server: it restarts whatever came before.
    // Only a reply a call waited for restarts past the crash limit: a server that sends huge messages of its own
    // accord is limited like one that crashes (else it could have itself restarted, at a second of work each, forever).
    const forSize = this.closedForSize && this.inflight.length > 0;
    this.error = this.closedForSize
      ? `A ${forSize ? 'reply' : 'message'} was larger than ${byteSize(STDIO_MESSAGE_BYTES)}; Tandem closed the connection.`
      : `The server stopped unexpectedly.`;
    this.setState('error');
    const now = Date.now();
    // An idle SSE stream cut after a working spell (a proxy's idle timeout) reconnects without counting as a crash;
    // a server that drops it at once is limited like one that crashes.
    const idleCut = this.idleStreamDrop && now - this.connectedAt >= (this.options.idleCutMinSessionMs ?? IDLE_CUT_MIN_SESSION_MS);
    this.idleStreamDrop = false;
    if (idleCut) this.error = 'The server\'s event stream was cut while idle; reconnecting.';
    if (!forSize && !idleCut && now - this.lastAutoRestart < RESTART_WINDOW_MS) {
      this.options.log(`MCP server "${this.definition.name}" stopped again; not restarting it automatically.`);
      return;
    }
    if (!forSize && !idleCut) this.lastAutoRestart = now;
    this.options.log(`MCP server "${this.definition.name}" ${forSize ? 'sent a message too large to read' : 'stopped unexpectedly'}; restarting in ${this.options.restartDelayMs} ms.`);
    // 'starting' from now on, not after the delay: a run or a call in between waits for the
    // server that was working a moment ago instead of going on without its tools.
    this.starting = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.pendingRestart = undefined;
        void this.start().then(resolve);
      }, this.options.restartDelayMs);
      this.pendingRestart = { timer, wake: resolve };
    });
    this.setState('starting');
  }

  private async listTools(session: McpSession, signal: AbortSignal): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await this.listToolPage(session, cursor === undefined ? {} : { cursor }, signal);
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** One page through the SDK (which checks it against the MCP schema); refused, the same page read tool by tool (mcpToolList.ts). */
  private async listToolPage(session: McpSession, request: { cursor?: string }, signal: AbortSignal): Promise<ToolListPage> {
    const options = (requestSignal: AbortSignal) => ({ timeout: this.options.startTimeoutMs, signal: requestSignal });
    try {
      const result = await withRequestSignal(signal, (requestSignal) => session.authorized(() => session.client.listTools(request, options(requestSignal)), requestSignal));
      const tools = result.tools.filter((tool) => !taskRequired(tool));
      return { tools: tools.map((tool) => ({ name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations })), nextCursor: result.nextCursor };
    } catch (error) {
      if (!isSchemaRejection(error)) throw error;
      const name = this.definition.name;
      this.options.log(`mcp "${name}": its tool list does not match the MCP schema (${rejectionSummary(error)}); reading it tool by tool`);
      const page = await withRequestSignal(signal, (requestSignal) =>
        session.authorized(() => session.client.request({ method: 'tools/list', params: request }, LENIENT_TOOL_PAGE, options(requestSignal)), requestSignal),
      );
      const tools: McpToolInfo[] = [];
      page.tools.forEach((raw, index) => {
        const tool = toolFromRaw(raw, index);
        if ('skipped' in tool) this.options.log(`mcp "${name}": ${tool.skipped}; left out`);
        else tools.push(tool);
      });
      return { tools, nextCursor: page.nextCursor };
    }
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.options.onDidChange();
  }

  private cancelRestart(): void {
    const pending = this.pendingRestart;
    this.pendingRestart = undefined;
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    pending.wake();
  }
}

export function connectionKey(name: string, source: string): string {
  return `${source}\u0000${name}`;
}

/** Where starting failed, in the words of its message. */
interface StartStage {
  readonly during: string;
  readonly answering: string;
}

function describeStartError(
  definition: McpServerDefinition,
  error: unknown,
  timeoutMs: number,
  stderrTail: readonly string[],
  notMcpOutput: string | undefined,
  stage: StartStage,
): string {
  const code = (error as { code?: unknown }).code;
  if (definition.type === 'stdio' && code === 'ENOENT') {
    return `Could not start "${definition.command}": command not found (ENOENT). Check "command" in ${definition.source}.`;
  }
  if (code === REQUEST_TIMEOUT) {
    const timedOut = `The server did not answer ${stage.answering} within ${formatSeconds(timeoutMs)}`;
    // A command that is not an MCP server (or one that logs to stdout) is told apart from a slow one.
    if (notMcpOutput === undefined) return `${timedOut}.`;
    return `${timedOut}; it wrote to stdout what is not MCP (${notMcpOutput}). Is "${definition.type === 'stdio' ? definition.command : definition.name}" an MCP server? One speaking stdio writes only JSON-RPC messages on stdout, and its logs on stderr.`;
  }
  if (code === CONNECTION_CLOSED) {
    const line = tellingLine(stderrTail);
    return `The server closed the connection ${stage.during}${line === undefined ? '.' : `; its output: ${line}`}`;
  }
  if (error instanceof ConfigurationError) return error.message;
  if (error instanceof SignInRequiredError) return `Sign-in required: ${error.message}`;
  if (definition.type === 'http' || definition.type === 'sse') return maskUrlsIn(`Could not connect to ${definition.url}: ${describeError(error)}`);
  return describeError(error);
}

/** Lines of a failing server's output that say nothing of why: npm's pointer to its log, stack frames, Node's version. */
const NOISE_LINES = [/A complete log of this run can be found/i, /^\s+at\s/, /^Node\.js v\d/, /^\s*\^+\s*$/, /^npm (error|ERR!)( 404)?\s*$/i, /^npm (error|ERR!) 404 (Note that|tarball, folder)/i];
const TELLING_LINE_CHARS = 300;
/** What the telling line says, most telling first: a thing not found, a thrown error, an error code. */
const TELLING_LINES = [/not ?found|no such file|cannot find|permission denied/i, /Error: /, /\b(ENOENT|EACCES|ECONNREFUSED|E404)\b|missing|invalid/i];

/**
 * The line of a server's last output that says most about why it stopped
 * (`npx` ends with where its log is, Node with its version): the first that
 * matches the most telling kind, else the last that is not noise.
 */
export function tellingLine(lines: readonly string[]): string | undefined {
  const meaningful = lines.filter((line) => line.trim() !== '' && !NOISE_LINES.some((pattern) => pattern.test(line)));
  const found = TELLING_LINES.map((pattern) => meaningful.find((line) => pattern.test(line))).find((line) => line !== undefined);
  const line = (found ?? meaningful.at(-1) ?? lines.at(-1))?.trim();
  // A server's line is quoted in the panel: a runaway one is cut.
  return line !== undefined && line.length > TELLING_LINE_CHARS ? `${line.slice(0, TELLING_LINE_CHARS)}…` : line;
}

/**
 * What a read error says of a stdout line, when it is one: not JSON (Node's
 * message quotes the line's start) or JSON that is not a JSON-RPC message.
 */
function notMcpLine(error: Error): string | undefined {
  if (error instanceof SyntaxError) return error.message.length > TELLING_LINE_CHARS ? `${error.message.slice(0, TELLING_LINE_CHARS)}…` : error.message;
  if (error.name === 'ZodError') return 'a JSON line that is not a JSON-RPC message';
  return undefined;
}

/** Waits for a start (which may be waiting on the user for an input) unless the call is stopped first. */
function untilDoneOrAborted(work: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (work === undefined) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void work.finally(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}


/** The first line of a message, cut short (a schema error is a page of JSON). */
function firstLine(text: string, most: number): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > most ? `${line.slice(0, most - 1)}…` : line;
}

/**
 * Roots are file:// URIs of this machine: only a server running here (stdio)
 * can use them, and a remote one would only learn the folders' paths. None
 * either for a server whose definition says `"roots": false`.
 */
function offersRoots(definition: McpServerDefinition): boolean {
  return definition.type === 'stdio' && definition.roots !== false;
}
