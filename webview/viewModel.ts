// The reducer from the event stream (AG-UI events + tandem CUSTOM events) to
// the panel's state. No DOM here: the same code replays a stored conversation,
// renders it live, exports a transcript, and runs under node:test.
import type { AgentEvent } from '../src/protocol/agentEvents';
import { applyCustomEvent } from './customEvents';
import { expireElicitations } from './elicitationEvents';
import { callSubject } from './stepText';
import {
  modelOf,
  push,
  text,
  touch,
  unfinished,
  type AnswerStep,
  type ConversationView,
  type ErrorStep,
  type ThinkingStep,
  type ToolCallStep,
  type ToolResultStep,
} from './steps';

function settle(view: ConversationView): void {
  for (const step of view.byMessage.values()) {
    if (!step.done) {
      step.done = true;
      touch(view, step);
    }
  }
  for (const step of view.byToolCall.values()) {
    if (unfinished(step.state)) {
      step.state = 'stopped';
      touch(view, step);
    }
  }
  expireApprovals(view);
}

/** Approvals nobody can answer any more (the run ended, or the panel shows a stored conversation). */
export function expireApprovals(view: ConversationView): void {
  for (const step of view.byApproval.values()) {
    if (step.status === 'pending') {
      step.status = 'expired';
      touch(view, step);
    }
  }
  expireElicitations(view);
}

function toolResultContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? text(part.text) : '')).join('');
  }
  return '';
}

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
        state: 'queued',
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
        subject: call ? callSubject(call.argsText) : undefined,
        content: toolResultContent(event['content']),
        state: 'done',
        summary: undefined,
        message: undefined,
        model: undefined,
      });
      view.resultByToolCall.set(toolCallId, step);
      if (call && unfinished(call.state)) {
        call.state = 'done';
        touch(view, call);
      }
      return;
    }
    case 'CUSTOM':
      applyCustomEvent(view, event);
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
