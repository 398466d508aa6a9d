// The CUSTOM events of the stream (agentEvents.ts and the host's own) applied
// to the panel's state: phase switch, usage, notices, retries, text that was
// reasoning, tool status, progress and images, message kinds, prompts, run edits and Retry.
import type {
  AgentEvent,
  CondensedPayload,
  ContextPayload,
  MessageKindPayload,
  NoticePayload,
  PhasePayload,
  RunUsage,
  ToolImagesPayload,
  ToolProgressPayload,
  ToolStatusPayload,
  UserImagesPayload,
} from '../src/protocol/agentEvents';
import { HostEventName } from '../src/protocol/hostEventNames';
import { applyApprovalEvent } from './approvalEvents';
import { applyElicitationEvent } from './elicitationEvents';
import { isShowableImage, keepLatestImages } from './resultImages';
import { push, text, touch, type CondensedStep, type ConversationView, type NoticeStep, type Step, type SteerStep, type ToolResultStep, type UserStep } from './steps';

function lastNotice(view: ConversationView, code: string): NoticeStep | undefined {
  for (let index = view.steps.length - 1; index >= 0; index--) {
    const step = view.steps[index];
    if (step?.kind === 'notice' && step.code === code) return step;
  }
  return undefined;
}

/** Notices that confirm a setting the user changed: a second one in a row replaces the first. */
const SETTING_NOTICES = new Set(['modeChanged', 'responseModeChanged']);

export function applyCustomEvent(view: ConversationView, event: AgentEvent): void {
  const name = text(event['name']);
  const value = (event['value'] ?? {}) as Record<string, unknown>;
  switch (name) {
    case HostEventName.userMessage: {
      const typed = text(value['text']);
      push<UserStep>(view, { kind: 'user', text: withAttachedLabels(typed, value['attached']), typed, asks: text(value['runId']) || undefined, model: undefined });
      // The run starts here, not at RUN_STARTED: preparing it (settings consent, MCP servers
      // starting) can take seconds, and Stop must work and Send wait meanwhile.
      view.running = true;
      view.usage = undefined;
      view.chromeDirty = true;
      return;
    }
    case 'tandem.steered':
      push<SteerStep>(view, { kind: 'steer', text: withAttachedLabels(text(value['text']), value['attached']), typed: text(value['text']), model: undefined });
      return;
    case HostEventName.retried: {
      // The question and every step up to the next question: its run, and what was said about it.
      const runId = text(value['runId']);
      const start = view.steps.findIndex((step) => step.kind === 'user' && step.asks === runId);
      for (let index = start; start >= 0 && index < view.steps.length; index++) {
        const step = view.steps[index]!;
        if (index > start && step.kind === 'user') break;
        step.setAside = true;
        touch(view, step);
      }
      view.chromeDirty = true;
      return;
    }
    case 'tandem.phase': {
      const phase = value as unknown as PhasePayload;
      if (phase.phase === 'tools') {
        view.toolsModel = { role: 'function-call', model: phase.model };
        return;
      }
      // A limit's notice (its code is the stop reason) just said why the tool phase ended: the switch does not say it again.
      const before = view.steps.at(-1);
      const reason = before?.kind === 'notice' && !before.phase && before.code === phase.stopReason ? undefined : phase.reason;
      push<NoticeStep>(view, {
        kind: 'notice',
        code: 'phase',
        level: 'info',
        message: reason ?? 'Answering.',
        model: undefined,
        phase: {
          reason,
          stopReason: phase.stopReason,
          functionCallModel: phase.functionCallModel,
          answerModel: phase.answerModel,
        },
      });
      return;
    }
    case 'tandem.usage':
      // A damaged stored line must not break the usage table (and the rest of the panel's chrome with it).
      if (!isRunUsage(value)) return;
      view.usage = value;
      view.usageByRun.set(view.runId ?? '', view.usage);
      view.chromeDirty = true;
      return;
    case 'tandem.context':
      view.context = value as unknown as ContextPayload;
      view.chromeDirty = true;
      return;
    case 'tandem.condensed': {
      const condensed = value as unknown as CondensedPayload;
      // Condensing on request is no run, but its call counts in the conversation's totals.
      if (condensed.reason === 'manual' && condensed.usage) {
        view.usageByRun.set(`condensed:${view.steps.length}`, condensed.usage);
        view.chromeDirty = true;
      }
      const count = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : 0);
      // A run that condenses shows the shorter request's count itself; on request (no run) the meter drops by what the history lost.
      if (condensed.reason === 'manual' && view.context) {
        const saved = Math.max(0, count(condensed.tokensBefore) - count(condensed.tokensAfter));
        view.context = { ...view.context, tokens: Math.max(0, view.context.tokens - saved), estimated: true, afterCondensing: true };
        view.chromeDirty = true;
      }
      push<CondensedStep>(view, {
        kind: 'condensed',
        summary: text(condensed.summary),
        messages: count(condensed.messages),
        tokensBefore: count(condensed.tokensBefore),
        tokensAfter: count(condensed.tokensAfter),
        estimated: condensed.estimated === true,
        reason: condensed.reason === 'overflow' || condensed.reason === 'manual' ? condensed.reason : 'nearWindow',
        model: condensed.model ? { role: 'answer', model: text(condensed.model) } : undefined,
      });
      return;
    }
    case 'tandem.notice': {
      const notice = value as unknown as NoticePayload;
      const code = text(notice.code);
      const last = view.steps.at(-1);
      // Toggling a mode back and forth leaves one line saying where it ended, not one per click.
      if (SETTING_NOTICES.has(code) && last?.kind === 'notice' && last.code === code) {
        last.message = text(notice.message);
        touch(view, last);
        return;
      }
      // The rules files are named again by every run; the conversation says it once, until they change.
      if (code === 'rules' && lastNotice(view, code)?.message === text(notice.message)) return;
      push<NoticeStep>(view, {
        kind: 'notice',
        code,
        level: notice.level === 'warning' || notice.level === 'error' ? notice.level : 'info',
        message: text(notice.message),
        model: undefined,
        phase: undefined,
        action: notice.action,
      });
      return;
    }
    case 'tandem.reclassified':
      // What streamed as text was reasoning: its boxes go, a Thought with all of it follows.
      discard(view, value['discarded']);
      return;
    case 'tandem.retry':
      // What the failed attempt streamed is void: its boxes go, the next attempt's replace them.
      discard(view, value['discarded']);
      retryNotice(view, text(value['model']), Number(value['attempt']), Number(value['delayMs']), text(value['reason']));
      return;
    case 'tandem.messageKind': {
      const kind = value as unknown as MessageKindPayload;
      const existing = view.byMessage.get(kind.messageId);
      if (existing?.kind === 'answer') {
        // A streamed reply promoted, e.g. single-model mode's reply that is the answer.
        existing.messageKind = kind.kind;
        touch(view, existing);
        // The loop can tell that reply was the answer only once it has streamed,
        // so the phase step that ended the tool phase came after it: it goes above.
        const phase = view.steps.at(-1);
        if (kind.kind === 'answer' && phase?.kind === 'notice' && phase.phase && view.steps.at(-2) === existing) {
          view.steps.splice(-2, 2, phase, existing);
          touch(view, phase);
        }
        return;
      }
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
    case 'tandem.toolStarted': {
      const call = view.byToolCall.get(text(value['toolCallId']));
      if (call?.state === 'queued') {
        call.state = 'running';
        touch(view, call);
      }
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
      if (status.summary?.kind === 'todos' && (status.status === 'done' || status.status === 'cached')) {
        view.plan = status.summary.items;
        view.chromeDirty = true;
      }
      return;
    }
    case 'tandem.toolImages': {
      const payload = value as unknown as ToolImagesPayload;
      showImages(view, view.resultByToolCall.get(text(payload.toolCallId)), payload.images);
      return;
    }
    case 'tandem.userImages': {
      const payload = value as unknown as UserImagesPayload;
      const runId = text(payload.runId);
      // The question is the step just before, in practice: looked for from the end.
      let question: UserStep | undefined;
      for (let index = view.steps.length - 1; index >= 0 && question === undefined; index--) {
        const step = view.steps[index];
        if (step?.kind === 'user' && step.asks === runId) question = step;
      }
      showImages(view, question, payload.images);
      return;
    }
    case 'tandem.approval':
      applyApprovalEvent(view, value);
      return;
    case 'tandem.elicitation':
      applyElicitationEvent(view, value);
      return;
    case HostEventName.runEdits: {
      const runId = text(value['runId']);
      const files = Array.isArray(value['files']) ? value['files'].map(text) : [];
      view.edits.set(runId, { files, reverted: false });
      view.chromeDirty = true;
      return;
    }
    case HostEventName.runReverted: {
      const edits = view.edits.get(text(value['runId']));
      // Files whose restore failed are still recorded: the revert bar stays for them.
      const remaining = Array.isArray(value['remaining']) ? value['remaining'].map(text) : [];
      if (edits && remaining.length > 0) edits.files = remaining;
      else if (edits) edits.reverted = true;
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

/** The prompt as the panel shows it: the typed text, then the names of what was attached (their content goes to the models only). */
function withAttachedLabels(prompt: string, attached: unknown): string {
  const labels = (attached as { labels?: unknown } | undefined)?.labels;
  if (!Array.isArray(labels) || labels.length === 0) return prompt;
  return `${prompt}\n\nAttached: ${labels.map((label) => String(label)).join(', ')}`;
}

/**
 * One notice for a model's retries in a row, updated by each: the latest
 * attempt that failed and when the next goes, then why the earlier ones failed
 * (the first cause is often the one that matters: a broken stream before the
 * server's 500s).
 */
function retryNotice(view: ConversationView, model: string, attempt: number, delayMs: number, reason: string): void {
  // The failed attempt's own steps, hidden by now, do not count.
  let last: Step | undefined;
  for (let index = view.steps.length - 1; index >= 0 && last === undefined; index--) {
    const step = view.steps[index]!;
    if (!((step.kind === 'thinking' || step.kind === 'answer') && step.discarded)) last = step;
  }
  const same = last?.kind === 'notice' && last.code === 'retry' && last.retries?.model === model ? last : undefined;
  const failed = [...(same?.retries?.failed ?? []), `attempt ${attempt}: ${reason}`];
  const wait = delayMs > 0 ? ` in ${Math.round(delayMs / 100) / 10} s` : '';
  const earlier = failed.length > 1 ? ` Earlier: ${failed.slice(0, -1).join('; ')}.` : '';
  const message = `${model}: attempt ${attempt} failed (${reason}); trying again${wait}.${earlier}`;
  if (same) {
    same.message = message;
    same.retries = { model, failed };
    touch(view, same);
    return;
  }
  push<NoticeStep>(view, { kind: 'notice', code: 'retry', level: 'warning', message, model: undefined, phase: undefined, retries: { model, failed } });
}

/** Hides the steps of the messages `ids` names (a retried attempt's, or text that was reasoning). */
function discard(view: ConversationView, ids: unknown): void {
  for (const id of Array.isArray(ids) ? ids.map(text) : []) {
    const step = view.byMessage.get(id);
    if (step && !step.discarded) {
      step.discarded = true;
      touch(view, step);
    }
  }
}

function isModelUsage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { calls?: unknown }).calls === 'number';
}

/** The shape the usage table reads. */
function isRunUsage(value: unknown): value is RunUsage {
  if (typeof value !== 'object' || value === null) return false;
  const usage = value as Partial<Record<keyof RunUsage, unknown>>;
  return isModelUsage(usage.functionCall) && isModelUsage(usage.answer) && typeof usage.toolPhaseMs === 'number' && typeof usage.answerPhaseMs === 'number';
}

/** Puts what can be shown of `images` on `step` (a tool's result, a question), keeping only the panel's latest images. */
function showImages(view: ConversationView, step: ToolResultStep | UserStep | undefined, images: unknown): void {
  const showable = Array.isArray(images) ? images.filter(isShowableImage) : [];
  if (step === undefined || showable.length === 0) return;
  step.images = showable;
  touch(view, step);
  keepLatestImages(view);
}
