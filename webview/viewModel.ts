// The panel's state, built from the event stream by one reducer. No DOM here:
// the same code replays a stored conversation, renders it live, and exports a
// transcript, and it runs under node:test.
//
// The state is mutated in place (a run can yield thousands of deltas; copying
// a 1,000-step list per delta would not be cheap) and every change bumps the
// step's `version` and marks it dirty so the renderer touches only what moved.
import type {
  AgentEvent,
  MessageKindPayload,
  ModelRole,
  NoticePayload,
  PhasePayload,
  RunUsage,
  ToolProgressPayload,
  ToolStatusPayload,
} from '../src/protocol/agentEvents';
import type { ToolResultSummary } from '../src/tools/tool';
import { HostEventName } from './hostEventNames';

export type StepKind = 'user' | 'thinking' | 'tool-call' | 'tool-result' | 'answer' | 'notice' | 'error';

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
}

export interface UserStep extends StepBase {
  readonly kind: 'user';
  readonly text: string;
}

export interface ThinkingStep extends StepBase {
  readonly kind: 'thinking';
  text: string;
  done: boolean;
}

export type ToolCallState = 'running' | 'done' | 'failed' | 'cached' | 'rejected';

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
  content: string;
  state: ToolCallState;
  summary: ToolResultSummary | undefined;
  /** Streaming response mode: the result as the loop announced it in its own message. */
  message: string | undefined;
}

export interface AnswerStep extends StepBase {
  readonly kind: 'answer';
  readonly messageId: string;
  /** `answer`: the final answer; `interim`/`toolResult`: streaming-mode messages. */
  readonly messageKind: MessageKindPayload['kind'];
  text: string;
  done: boolean;
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
  readonly message: string;
  readonly phase: PhaseSwitch | undefined;
}

export interface ErrorStep extends StepBase {
  readonly kind: 'error';
  readonly message: string;
  readonly code: string | undefined;
  readonly suggestion: string | undefined;
}

export type Step = UserStep | ThinkingStep | ToolCallStep | ToolResultStep | AnswerStep | NoticeStep | ErrorStep;

export interface RunEdits {
  readonly files: readonly string[];
  reverted: boolean;
}

export interface ConversationView {
  readonly steps: Step[];
  running: boolean;
  runId: string | undefined;
  usage: RunUsage | undefined;
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
    edits: new Map(),
    dirty: new Set(),
    chromeDirty: true,
    byMessage: new Map(),
    byToolCall: new Map(),
    resultByToolCall: new Map(),
    pendingKinds: new Map(),
    resultMessages: new Map(),
    toolsModel: undefined,
    nextId: 0,
  };
}

function modelOf(event: AgentEvent): ModelLabel | undefined {
  const metadata = event['metadata'] as { role?: unknown; model?: unknown } | undefined;
  if (!metadata || (metadata.role !== 'function-call' && metadata.role !== 'answer')) return undefined;
  return { role: metadata.role, model: typeof metadata.model === 'string' ? metadata.model : '' };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function push<S extends Step>(view: ConversationView, step: Omit<S, 'id' | 'version' | 'runId'>): S {
  const full = { ...step, id: `s${view.nextId++}`, version: 0, runId: view.runId } as unknown as S;
  view.steps.push(full);
  view.dirty.add(full.id);
  return full;
}

function touch(view: ConversationView, step: Step): void {
  step.version++;
  view.dirty.add(step.id);
}

/** Marks everything still streaming as finished (the run ended). */
function settle(view: ConversationView): void {
  for (const step of view.byMessage.values()) {
    if (!step.done) {
      step.done = true;
      touch(view, step);
    }
  }
  for (const step of view.byToolCall.values()) {
    if (step.state === 'running') {
      step.state = 'failed';
      touch(view, step);
    }
  }
}

function toolResultContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? text(part.text) : '')).join('');
  }
  return '';
}

function applyCustom(view: ConversationView, event: AgentEvent): void {
  const name = text(event['name']);
  const value = (event['value'] ?? {}) as Record<string, unknown>;
  switch (name) {
    case HostEventName.userMessage:
      push<UserStep>(view, { kind: 'user', text: text(value['text']), model: undefined });
      return;
    case 'tandem.phase': {
      const phase = value as unknown as PhasePayload;
      if (phase.phase === 'tools') {
        view.toolsModel = { role: 'function-call', model: phase.model };
        return;
      }
      push<NoticeStep>(view, {
        kind: 'notice',
        code: 'phase',
        level: 'info',
        message: phase.reason ?? 'Answering.',
        model: undefined,
        phase: {
          reason: phase.reason,
          stopReason: phase.stopReason,
          functionCallModel: phase.functionCallModel,
          answerModel: phase.answerModel,
        },
      });
      return;
    }
    case 'tandem.usage':
      view.usage = value as unknown as RunUsage;
      view.chromeDirty = true;
      return;
    case 'tandem.notice': {
      const notice = value as unknown as NoticePayload;
      push<NoticeStep>(view, {
        kind: 'notice',
        code: text(notice.code),
        level: notice.level === 'warning' || notice.level === 'error' ? notice.level : 'info',
        message: text(notice.message),
        model: undefined,
        phase: undefined,
      });
      return;
    }
    case 'tandem.retry':
      push<NoticeStep>(view, {
        kind: 'notice',
        code: 'retry',
        level: 'warning',
        message: `Retrying ${text(value['model'])} (attempt ${String(value['attempt'])}) in ${Math.round(Number(value['delayMs']) / 100) / 10} s: ${text(value['reason'])}`,
        model: undefined,
        phase: undefined,
      });
      return;
    case 'tandem.messageKind': {
      const kind = value as unknown as MessageKindPayload;
      view.pendingKinds.set(kind.messageId, kind);
      return;
    }
    case 'tandem.toolProgress': {
      const progress = value as unknown as ToolProgressPayload;
      const call = view.byToolCall.get(progress.toolCallId);
      if (!call) return;
      const fraction =
        progress.progress !== undefined && progress.total ? ` ${Math.round((progress.progress / progress.total) * 100)}%` : '';
      call.progress = `${progress.message ?? ''}${fraction}`.trim() || undefined;
      touch(view, call);
      return;
    }
    case 'tandem.toolStatus': {
      const status = value as unknown as ToolStatusPayload;
      const call = view.byToolCall.get(status.toolCallId);
      if (call) {
        call.state = status.status;
        call.durationMs = status.durationMs;
        call.source = status.source;
        call.progress = undefined;
        touch(view, call);
      }
      const result = view.resultByToolCall.get(status.toolCallId);
      if (result) {
        result.state = status.status;
        result.summary = status.summary;
        touch(view, result);
      }
      return;
    }
    case HostEventName.runEdits: {
      const runId = text(value['runId']);
      const files = Array.isArray(value['files']) ? value['files'].map(text) : [];
      view.edits.set(runId, { files, reverted: false });
      view.chromeDirty = true;
      return;
    }
    case HostEventName.runReverted: {
      const edits = view.edits.get(text(value['runId']));
      if (edits) edits.reverted = true;
      view.chromeDirty = true;
      return;
    }
    default:
      return;
  }
}

/**
 * A streaming-mode tool-result message belongs to the latest tool-result step
 * not yet announced (the loop announces each result right after it), so each
 * call keeps one result step in both response modes.
 */
function attachResultMessage(view: ConversationView, messageId: string): ToolResultStep | undefined {
  for (let index = view.steps.length - 1; index >= 0; index--) {
    const step = view.steps[index];
    if (step?.kind === 'user') return undefined;
    if (step?.kind === 'tool-result' && step.message === undefined) {
      step.message = '';
      view.resultMessages.set(messageId, step);
      touch(view, step);
      return step;
    }
  }
  return undefined;
}

function startMessage(view: ConversationView, messageId: string, event: AgentEvent): AnswerStep | ToolResultStep {
  const kind = view.pendingKinds.get(messageId);
  view.pendingKinds.delete(messageId);
  const metadataKind = (event['metadata'] as { kind?: unknown } | undefined)?.kind;
  if (kind?.kind === 'toolResult' || metadataKind === 'toolResult') {
    const attached = attachResultMessage(view, messageId);
    if (attached) return attached;
  }
  const model = modelOf(event) ?? (kind ? { role: kind.role, model: kind.model } : undefined);
  const messageKind =
    kind?.kind ?? (metadataKind === 'interim' || metadataKind === 'toolResult' ? metadataKind : 'answer');
  const step = push<AnswerStep>(view, {
    kind: 'answer',
    messageId,
    messageKind,
    text: '',
    done: false,
    model,
  });
  view.byMessage.set(messageId, step);
  return step;
}

function startThinking(view: ConversationView, messageId: string, event: AgentEvent): ThinkingStep {
  const step = push<ThinkingStep>(view, {
    kind: 'thinking',
    text: '',
    done: false,
    model: modelOf(event) ?? view.toolsModel,
  });
  view.byMessage.set(messageId, step);
  return step;
}

/** Applies one event to the view. Unknown events are ignored. */
export function applyEvent(view: ConversationView, event: AgentEvent): void {
  switch (event.type) {
    case 'RUN_STARTED':
      view.running = true;
      view.runId = text(event['runId']) || undefined;
      view.usage = undefined;
      view.chromeDirty = true;
      return;
    case 'RUN_FINISHED':
      settle(view);
      view.running = false;
      view.chromeDirty = true;
      return;
    case 'RUN_ERROR': {
      settle(view);
      const metadata = (event['metadata'] ?? {}) as Record<string, unknown>;
      const suggestion = text(event['suggestion']) || text(metadata['suggestion']) || undefined;
      push<ErrorStep>(view, {
        kind: 'error',
        message: text(event['message']) || 'The run failed.',
        code: text(event['code']) || undefined,
        suggestion,
        model: modelOf(event),
      });
      view.running = false;
      view.chromeDirty = true;
      return;
    }
    case 'REASONING_START':
    case 'REASONING_MESSAGE_START': {
      const messageId = text(event['messageId']);
      if (!view.byMessage.has(messageId)) startThinking(view, messageId, event);
      return;
    }
    case 'REASONING_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CHUNK': {
      const messageId = text(event['messageId']);
      const step = view.byMessage.get(messageId) ?? startThinking(view, messageId, event);
      step.text += text(event['delta']);
      touch(view, step);
      return;
    }
    case 'REASONING_END':
    case 'REASONING_MESSAGE_END': {
      const step = view.byMessage.get(text(event['messageId']));
      if (step && !step.done) {
        step.done = true;
        touch(view, step);
      }
      return;
    }
    case 'TEXT_MESSAGE_START': {
      const messageId = text(event['messageId']);
      if (!view.byMessage.has(messageId) && !view.resultMessages.has(messageId)) startMessage(view, messageId, event);
      return;
    }
    case 'TEXT_MESSAGE_CONTENT':
    case 'TEXT_MESSAGE_CHUNK': {
      const messageId = text(event['messageId']);
      const step = view.byMessage.get(messageId) ?? view.resultMessages.get(messageId) ?? startMessage(view, messageId, event);
      if (step.kind === 'tool-result') step.message = (step.message ?? '') + text(event['delta']);
      else step.text += text(event['delta']);
      touch(view, step);
      return;
    }
    case 'TEXT_MESSAGE_END': {
      const step = view.byMessage.get(text(event['messageId']));
      if (step && !step.done) {
        step.done = true;
        touch(view, step);
      }
      return;
    }
    case 'TOOL_CALL_START': {
      const toolCallId = text(event['toolCallId']);
      const step = push<ToolCallStep>(view, {
        kind: 'tool-call',
        toolCallId,
        name: text(event['toolCallName']),
        argsText: '',
        state: 'running',
        durationMs: undefined,
        source: undefined,
        progress: undefined,
        model: modelOf(event) ?? view.toolsModel,
      });
      view.byToolCall.set(toolCallId, step);
      return;
    }
    case 'TOOL_CALL_ARGS': {
      const step = view.byToolCall.get(text(event['toolCallId']));
      if (!step) return;
      step.argsText += text(event['delta']);
      touch(view, step);
      return;
    }
    case 'TOOL_CALL_RESULT': {
      const toolCallId = text(event['toolCallId']);
      const call = view.byToolCall.get(toolCallId);
      const step = push<ToolResultStep>(view, {
        kind: 'tool-result',
        toolCallId,
        name: call?.name ?? '',
        content: toolResultContent(event['content']),
        state: 'done',
        summary: undefined,
        message: undefined,
        model: undefined,
      });
      view.resultByToolCall.set(toolCallId, step);
      if (call && call.state === 'running') {
        call.state = 'done';
        touch(view, call);
      }
      return;
    }
    case 'CUSTOM':
      applyCustom(view, event);
      return;
    default:
      return;
  }
}

/** Applies a batch and returns the view (for one-liners in tests and replay). */
export function applyEvents(view: ConversationView, events: readonly AgentEvent[]): ConversationView {
  for (const event of events) applyEvent(view, event);
  return view;
}

/** Pretty JSON of a tool call's arguments; the raw text when it is not JSON (yet). */
export function prettyArguments(argsText: string): string {
  if (!argsText.trim()) return '{}';
  try {
    return JSON.stringify(JSON.parse(argsText), null, 2);
  } catch {
    return argsText;
  }
}

/** The one-line summary shown on a collapsed tool result. */
export function resultHeadline(step: ToolResultStep): string {
  if (step.state === 'failed') return `failed: ${firstLine(step.content)}`;
  if (step.state === 'rejected') return 'not approved';
  if (step.summary?.kind === 'search') {
    return `${step.summary.total} result${step.summary.total === 1 ? '' : 's'}`;
  }
  const preview = step.summary?.kind === 'text' ? step.summary.preview : step.content;
  return firstLine(preview) || '(empty result)';
}

function firstLine(value: string): string {
  const line = value.trim().split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
