// The panel's state: the steps a conversation shows and the indexes the
// reducer keeps. Mutated in place (a run yields thousands of deltas; copying a
// 1,000-step list per delta would not be cheap): every change bumps the step's
// `version` and marks it dirty so the renderer touches only what moved.
import type { AgentEvent, CondensedPayload, ElicitationPayload, MessageKindPayload, ModelRole, NoticePayload, RunUsage, ContextPayload, ToolImage } from '../src/protocol/agentEvents';
import type { TodoItem, ToolResultSummary } from '../src/tools/tool';

export type StepKind = 'user' | 'steer' | 'thinking' | 'tool-call' | 'tool-result' | 'answer' | 'notice' | 'error' | 'approval' | 'elicitation' | 'condensed';

export interface ModelLabel {
  readonly role: ModelRole;
  readonly model: string;
}

interface StepBase {
  readonly id: string;
  readonly runId: string | undefined;
  model: ModelLabel | undefined;
  /** Bumped on every change; the renderer compares it. */
  version: number;
  /** Part of a try the user asked again (Retry): shown, no longer sent to the models. */
  setAside?: boolean;
}

export interface UserStep extends StepBase {
  readonly kind: 'user';
  /** As shown: the typed text, then the names of what was attached. */
  readonly text: string;
  /** As typed: what Edit, an error's Edit and ask, and the prompt box's recall put back. */
  readonly typed: string;
  /** The run this question starts (its own `runId` is the run before, as for every step pushed before RUN_STARTED). */
  readonly asks: string | undefined;
  /** Images pasted with it, as they arrived: never stored (as a tool result's). */
  images?: readonly ToolImage[] | undefined;
  /** How many images the panel took off this question to keep only the latest. */
  imagesNoLongerShown?: number;
}

/** A message the user sent into a run while its tools went (Steer), where the run took it in. */
export interface SteerStep extends StepBase {
  readonly kind: 'steer';
  /** As shown: the typed text, then the names of what was attached. */
  readonly text: string;
  /** As typed: what the prompt box's recall puts back. */
  readonly typed: string;
}

export interface ThinkingStep extends StepBase {
  readonly kind: 'thinking';
  text: string;
  done: boolean;
  /** Streamed by an attempt that failed and was retried: hidden. */
  discarded?: boolean;
}

/**
 * `queued`: asked for, not begun (calls that change something run one after
 * another); `awaiting`: begun, its approval waits for the user; `stopped`:
 * still queued or running when the run ended (Stop, an error, the time
 * limit), so it has no result of its own, or cut off by Stop or the time
 * limit with what it did until then as its result (a command's output).
 */
export type ToolCallState = 'queued' | 'running' | 'awaiting' | 'done' | 'failed' | 'cached' | 'rejected' | 'stopped';

/** A call that has no outcome yet. */
export function unfinished(state: ToolCallState): boolean {
  return state === 'queued' || state === 'running' || state === 'awaiting';
}

export interface ToolCallStep extends StepBase {
  readonly kind: 'tool-call';
  readonly toolCallId: string;
  readonly name: string;
  argsText: string;
  state: ToolCallState;
  durationMs: number | undefined;
  source: string | undefined;
  progress: string | undefined;
}

export interface ToolResultStep extends StepBase {
  readonly kind: 'tool-result';
  readonly toolCallId: string;
  name: string;
  /** What the call was about, from its arguments (the query, the path): tells parallel calls' results apart. */
  subject: string | undefined;
  content: string;
  state: ToolCallState;
  summary: ToolResultSummary | undefined;
  /** Streaming response mode: the result as the loop announced it in its own message. */
  message: string | undefined;
  /**
   * Images the tool returned, as they arrived: never stored, so gone when the
   * conversation is drawn again (another conversation opened, a hidden view
   * back from its saved state, a reload).
   */
  images?: readonly ToolImage[] | undefined;
  /** How many images the panel took off this result to keep only the latest. */
  imagesNoLongerShown?: number;
}

export interface AnswerStep extends StepBase {
  readonly kind: 'answer';
  readonly messageId: string;
  /** `answer`: the final answer; `interim`/`toolResult`: streaming-mode messages. */
  messageKind: MessageKindPayload['kind'];
  text: string;
  done: boolean;
  /** Streamed by an attempt that failed and was retried: hidden. */
  discarded?: boolean;
}

export interface PhaseSwitch {
  readonly reason: string | undefined;
  readonly stopReason: string | undefined;
  readonly functionCallModel: string;
  readonly answerModel: string;
}

export interface NoticeStep extends StepBase {
  readonly kind: 'notice';
  readonly code: string;
  readonly level: NoticePayload['level'];
  /** Not readonly: a setting's notice replaces the one just before it for the same setting. */
  message: string;
  readonly phase: PhaseSwitch | undefined;
  /** A button (e.g. "Manage Workspace Trust") that runs a command. */
  readonly action?: NoticePayload['action'];
  /** A retry notice: the model it is about, and why each earlier attempt failed (the latest retry updates the step). */
  retries?: { readonly model: string; readonly failed: string[] } | undefined;
}

export interface ErrorStep extends StepBase {
  readonly kind: 'error';
  readonly message: string;
  readonly code: string | undefined;
  readonly suggestion: string | undefined;
}

/** A request for the user's approval (a `tandem.approval` event), then its decision. */
export interface ApprovalStep extends StepBase {
  readonly kind: 'approval';
  readonly approvalId: string;
  readonly toolCallId: string | undefined;
  readonly tool: string;
  readonly requestKind: 'edit' | 'toolCall';
  readonly args: unknown;
  readonly summary: string;
  readonly sensitive: boolean;
  readonly alwaysAllowKey: string | undefined;
  readonly alwaysAllowLabel: string | undefined;
  /** `expired`: the run ended (or the panel was reloaded) before anyone answered. */
  status: 'pending' | 'approved' | 'rejected' | 'expired';
  alwaysAllowed: boolean;
  /** The card's button was clicked; waiting for the decision event. */
  answering: boolean;
  /** While pending: the note typed for a rejection (kept across re-renders); once rejected: the note sent. */
  note: string;
}

/** Values typed into an elicitation card, kept so a re-render loses nothing. */
export type ElicitationDraft = Record<string, string | boolean | string[]>;

/** An MCP server's question (a `tandem.elicitation` event), then its answer. */
export interface ElicitationStep extends StepBase {
  readonly kind: 'elicitation';
  readonly elicitationId: string;
  readonly serverName: string;
  readonly message: string;
  readonly mode: ElicitationPayload['mode'];
  readonly requestedSchema: ElicitationPayload['requestedSchema'];
  readonly url: string | undefined;
  /** `expired`: the run ended (or the panel was reloaded) before anyone answered. */
  status: ElicitationPayload['status'] | 'expired';
  /** A button was clicked; waiting for the answer event. */
  answering: boolean;
  readonly draft: ElicitationDraft;
}

/** Older turns condensed into a summary (a `tandem.condensed` event); the summary shows when opened. */
export interface CondensedStep extends StepBase {
  readonly kind: 'condensed';
  readonly summary: string;
  readonly messages: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly estimated: boolean;
  readonly reason: CondensedPayload['reason'];
}

export type Step = UserStep | SteerStep | ThinkingStep | ToolCallStep | ToolResultStep | AnswerStep | NoticeStep | ErrorStep | ApprovalStep | ElicitationStep | CondensedStep;

export interface RunEdits {
  /** The run's changed files; after a revert that could not restore some, those. */
  files: readonly string[];
  reverted: boolean;
}

export interface ConversationView {
  readonly steps: Step[];
  running: boolean;
  runId: string | undefined;
  usage: RunUsage | undefined;
  /** The latest usage of each run of the conversation, for its totals (`usage-total`). */
  readonly usageByRun: Map<string, RunUsage>;
  /** The last request's size against its model's window (the context meter). */
  context: ContextPayload | undefined;
  /** The newest todo list of the conversation (update_todo_list), for the plan above the prompt box. */
  plan: readonly TodoItem[] | undefined;
  /** Runs that changed files, for the "Revert this run's edits" button. */
  readonly edits: Map<string, RunEdits>;
  /** Ids of steps changed since the renderer last looked. */
  readonly dirty: Set<string>;
  /** True when usage, running or edits changed since the renderer last looked. */
  chromeDirty: boolean;
  // Indexes into `steps`, by the ids the events use.
  readonly byMessage: Map<string, ThinkingStep | AnswerStep>;
  readonly byToolCall: Map<string, ToolCallStep>;
  readonly resultByToolCall: Map<string, ToolResultStep>;
  readonly byApproval: Map<string, ApprovalStep>;
  readonly byElicitation: Map<string, ElicitationStep>;
  readonly pendingKinds: Map<string, MessageKindPayload>;
  /** Streaming-mode tool-result messages, folded into their tool-result step. */
  readonly resultMessages: Map<string, ToolResultStep>;
  /** The function-call model of the running phase, for events without metadata. */
  toolsModel: ModelLabel | undefined;
  nextId: number;
}

export function createConversationView(): ConversationView {
  return {
    steps: [],
    running: false,
    runId: undefined,
    usage: undefined,
    usageByRun: new Map(),
    context: undefined,
    plan: undefined,
    edits: new Map(),
    dirty: new Set(),
    chromeDirty: true,
    byMessage: new Map(),
    byToolCall: new Map(),
    resultByToolCall: new Map(),
    byApproval: new Map(),
    byElicitation: new Map(),
    pendingKinds: new Map(),
    resultMessages: new Map(),
    toolsModel: undefined,
    nextId: 0,
  };
}

export function modelOf(event: AgentEvent): ModelLabel | undefined {
  const metadata = event['metadata'] as { role?: unknown; model?: unknown } | undefined;
  if (!metadata || (metadata.role !== 'function-call' && metadata.role !== 'answer')) return undefined;
  return { role: metadata.role, model: typeof metadata.model === 'string' ? metadata.model : '' };
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function push<S extends Step>(view: ConversationView, step: Omit<S, 'id' | 'version' | 'runId'>): S {
  const full = { ...step, id: `s${view.nextId++}`, version: 0, runId: view.runId } as unknown as S;
  view.steps.push(full);
  view.dirty.add(full.id);
  return full;
}

export function touch(view: ConversationView, step: Step): void {
  step.version++;
  view.dirty.add(step.id);
}

/** Open by default: live thinking, answers, notices, errors and search results. */
export function defaultOpen(step: Step): boolean {
  switch (step.kind) {
    case 'thinking':
      return !step.done;
    case 'answer':
    case 'notice':
    case 'error':
    case 'user':
    case 'steer':
      return true;
    case 'tool-result':
      // A result with images is open: the picture (a screenshot) is what the call was for. It stays open, saying so, once the panel drops them.
      return step.summary?.kind === 'search' || step.state === 'failed' || step.state === 'stopped' || step.message !== undefined || (step.images?.length ?? 0) > 0 || (step.imagesNoLongerShown ?? 0) > 0;
    case 'tool-call':
    case 'approval':
    case 'elicitation':
    case 'condensed':
      return false;
  }
}
