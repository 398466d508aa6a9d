// One step of the conversation as DOM. Plain functions: build an element for a
// step, or refresh the element after the step changed. Collapsed bodies are
// built only when opened, so a 1,000-step conversation stays light.
import type { PanelCommand } from '../src/protocol/agentEvents';
import type { SubagentStep } from '../src/tools/tool';
import { createApprovalCard, updateApprovalCard, type ApprovalCardHooks } from './approvalCard';
import { createElicitationCard, updateElicitationCard, type ElicitationCardHooks } from './elicitationCard';
import { StreamingMarkdown } from './streamingMarkdown';
import { resultImages } from './resultImages';
import { condensedTitle, phaseLabel, prettyArguments, resultTitle, subagentReport } from './stepText';
import type {
  AnswerStep,
  CondensedStep,
  ErrorStep,
  NoticeStep,
  Step,
  ThinkingStep,
  ToolCallStep,
  ToolResultStep,
  UserStep,
} from './steps';
import { defaultOpen } from './steps';
import { element, iconButton } from './element';
import { todoChecklist } from './todoListView';

export interface StepRenderContext extends ApprovalCardHooks, ElicitationCardHooks {
  readonly onCopy: (text: string) => void;
  /** Inserts an answer's code block at the editor's cursor (absent: not offered). */
  readonly onInsert?: (text: string, language: string | undefined) => void;
  /** Open/closed as the user left each step; absent: the step's default. */
  readonly userOpen: Map<string, boolean>;
  /** Runs a notice's action (absent: actions are not shown). */
  readonly onCommand?: (command: PanelCommand) => void;
  /** Puts the question a failed run was asked back in the prompt box (absent: not offered). */
  readonly onResend?: (errorStepId: string) => void;
  /** The run whose question can be edited and asked again (the last, once it has ended; retryOffer.ts). */
  readonly editableRun?: () => string | undefined;
  /** Puts that question in the prompt box, to be changed and asked in place of its try (absent: not offered). */
  readonly onEdit?: (step: UserStep) => void;
}

const stateLabel: Record<ToolCallStep['state'], string> = {
  queued: 'queued',
  running: 'running',
  awaiting: 'awaiting approval',
  done: 'done',
  failed: 'failed',
  cached: 'cached',
  rejected: 'rejected',
  stopped: 'stopped',
};

/** Right-to-left text (Arabic, Hebrew) reads from its own side: the direction comes from the first strong letter. */
function withAutoDirection<T extends HTMLElement>(node: T): T {
  node.dir = 'auto';
  return node;
}

function title(step: Step): string {
  switch (step.kind) {
    case 'user':
      return 'You';
    case 'steer':
      return 'You, while it worked';
    case 'thinking':
      return step.done ? 'Thought' : 'Thinking…';
    case 'tool-call':
      return step.name;
    case 'tool-result':
      return resultTitle(step);
    case 'answer':
      return step.messageKind === 'answer' ? 'Answer' : step.messageKind === 'interim' ? 'Update' : 'Tool result';
    case 'notice':
      return step.phase ? phaseLabel(step.phase).title : 'Notice';
    case 'error':
      return 'Error';
    case 'approval':
      return `Approval: ${step.tool}`;
    case 'elicitation':
      return `Question from ${step.serverName}`;
    case 'condensed':
      return condensedTitle(step);
  }
}

const condensedReason: Record<CondensedStep['reason'], string> = {
  nearWindow: 'The conversation neared the model\'s context window, so older turns were condensed into this summary.',
  overflow: 'The server said the request did not fit the model\'s context window, so older turns were condensed into this summary and the request was sent again.',
  manual: 'Condensed on request (Tandem: Condense Conversation).',
};

function condensedBody(step: CondensedStep): HTMLElement {
  const body = element('div', 'condensed-body');
  body.append(element('div', 'muted', `${condensedReason[step.reason]}${step.estimated ? ' Token counts are estimates.' : ''}`));
  const summary = element('div', 'condensed-summary', step.summary);
  summary.dataset['testid'] = 'condensed-summary';
  body.append(summary);
  return body;
}

function summaryLine(step: Step): HTMLElement {
  const summary = element('summary', 'step-summary');
  summary.append(element('span', 'step-title', title(step)));
  if (step.kind === 'tool-call') {
    const state = element('span', `tool-state state-${step.state}`, stateLabel[step.state]);
    state.dataset['testid'] = 'tool-state';
    summary.append(state);
    // A rejected call never ran: its few ms are Tandem's, and the wait for the decision is the user's (not counted).
    if (step.durationMs !== undefined && step.state !== 'rejected') summary.append(element('span', 'muted', `${Math.round(step.durationMs)} ms`));
    if (step.progress) summary.append(element('span', 'muted', step.progress));
  }
  if (step.model) {
    const label = element('span', 'model-label', step.model.model || step.model.role);
    label.title = `${step.model.role === 'answer' ? 'Answer model' : 'Function-call model'}: ${step.model.model || '(unnamed)'}`;
    summary.append(label);
  }
  if (step.kind === 'user' && step.setAside) {
    const retried = element('span', 'muted retried-label', 'asked again below');
    retried.dataset['testid'] = 'retried';
    retried.title = 'Retry asked this question again: the models no longer see this try or its answer.';
    summary.append(retried);
  }
  const preview = previewText(step);
  if (preview) summary.append(element('span', 'step-preview', preview));
  return summary;
}

/** A line under a collapsed step's title: why the model chose its move, or the call's arguments. */
function previewText(step: Step): string | undefined {
  if (step.kind === 'thinking' && step.done) return step.text.trim().split('\n', 1)[0] || undefined;
  if (step.kind === 'tool-call' && step.argsText.trim()) {
    const compact = step.argsText.replace(/\s+/g, ' ').trim();
    return compact.length > 120 ? `${compact.slice(0, 117)}...` : compact;
  }
  return undefined;
}

function pre(text: string, className = 'code'): HTMLElement {
  const block = element('pre', className);
  block.textContent = text;
  return block;
}

function thinkingBody(step: ThinkingStep): HTMLElement {
  const body = withAutoDirection(element('div', 'thinking-text'));
  body.textContent = step.text;
  shownLength.set(body, step.text.length);
  return body;
}

function toolCallBody(step: ToolCallStep): HTMLElement {
  const body = element('div');
  if (step.source) body.append(element('div', 'muted', `source: ${step.source}`));
  const args = pre(prettyArguments(step.argsText));
  args.dataset['testid'] = 'tool-args';
  body.append(args);
  return body;
}

function topResults(top: readonly { readonly title: string; readonly snippet?: string | undefined }[]): HTMLElement {
  const list = element('ol', 'top-results');
  list.dataset['testid'] = 'top-results';
  for (const hit of top.slice(0, 3)) {
    const item = element('li');
    item.append(element('span', 'hit-title', hit.title));
    if (hit.snippet) item.append(element('div', 'hit-snippet', hit.snippet));
    list.append(item);
  }
  return list;
}

const STEP_MARK: Record<NonNullable<SubagentStep['status']>, string> = { done: '✓', cached: '✓', failed: '✗', rejected: '⊘', stopped: '■' };

/** The calls a subagent made, in order, each with how it ended. */
function subagentSteps(steps: readonly SubagentStep[]): HTMLElement {
  const list = element('ol', 'subagent-steps');
  list.dataset['testid'] = 'subagent-steps';
  for (const step of steps) {
    const item = element('li', 'subagent-step');
    item.dataset['testid'] = 'subagent-step';
    item.dataset['status'] = step.status ?? 'unfinished';
    const mark = element('span', 'subagent-mark', step.status ? STEP_MARK[step.status] : '…');
    mark.setAttribute('aria-hidden', 'true');
    // The mark is for the eye; a call that did not simply succeed says how it ended in words.
    const ended = step.status === undefined ? ' (unfinished)' : step.status === 'done' || step.status === 'cached' ? '' : ` (${step.status === 'rejected' ? 'not approved' : step.status})`;
    item.append(mark, element('span', undefined, `${step.subject === undefined ? step.tool : `${step.tool} ${step.subject}`}${ended}`));
    list.append(item);
  }
  return list;
}

function toolResultBody(step: ToolResultStep): HTMLElement {
  const body = element('div');
  if (step.message !== undefined) {
    const message = element('div', 'result-message', step.message);
    message.dataset['testid'] = 'result-message';
    body.append(message);
  }
  if (step.summary?.kind === 'todos' && step.message === undefined) {
    body.append(todoChecklist(step.summary.items));
  } else if (step.summary?.kind === 'subagent') {
    body.append(subagentSteps(step.summary.steps), pre(subagentReport(step.content), 'result'));
  } else if (step.summary?.kind === 'search' || step.message !== undefined) {
    if (step.summary?.kind === 'search') body.append(topResults(step.summary.top));
    const whole = element('details', 'whole-result');
    whole.append(element('summary', undefined, 'Whole result'));
    whole.addEventListener('toggle', () => {
      if (whole.open && whole.childElementCount === 1) whole.append(pre(step.content, 'result'));
    });
    body.append(whole);
  } else {
    body.append(pre(step.content, 'result'));
  }
  const images = resultImages(step);
  if (images) body.append(images);
  return body;
}

function answerBody(step: AnswerStep, context: StepRenderContext): HTMLElement {
  const body = element('div', 'markdown');
  if (step.messageKind === 'answer') body.dataset['testid'] = 'answer';
  body.setAttribute('aria-busy', String(!step.done));
  const markdown = new StreamingMarkdown(body, { copy: context.onCopy, insert: context.onInsert });
  markdown.update(step.text);
  shownLength.set(body, step.text.length);
  streamingBodies.set(body, markdown);
  return body;
}

/** A finished answer's Copy: its Markdown as the model wrote it (a selection copies the rendered text). */
function answerActions(step: AnswerStep, context: StepRenderContext): HTMLElement {
  const actions = element('div', 'notice-actions answer-actions');
  const copy = element('button', 'notice-action', 'Copy');
  copy.dataset['testid'] = 'copy-answer';
  copy.setAttribute('aria-label', 'Copy answer');
  copy.title = 'Copy the answer as Markdown';
  copy.addEventListener('click', () => {
    context.onCopy(step.text);
    copy.textContent = 'Copied';
    setTimeout(() => (copy.textContent = 'Copy'), 1200);
  });
  actions.append(copy);
  return actions;
}

/** Adds the answer's actions once it is done (after its body), or takes them away; O(1) a frame while it streams. */
function syncAnswerActions(details: HTMLDetailsElement, step: Step, context: StepRenderContext): void {
  const wanted = step.kind === 'answer' && step.done && step.messageKind === 'answer' && step.text.trim() !== '';
  const present = details.lastElementChild?.classList.contains('answer-actions') === true;
  if (wanted && !present && details.childElementCount === 2) details.append(answerActions(step, context));
  else if (!wanted && present) details.lastElementChild?.remove();
}

/** Characters of a live step's text already in its body: a frame hands on only the rest. */
const shownLength = new WeakMap<Element, number>();

/** The incremental renderer behind each answer body, so later frames only add what is new. */
const streamingBodies = new WeakMap<Element, StreamingMarkdown>();

/**
 * Updates a streaming answer or live thinking step without rebuilding it:
 * the DOM the user may be selecting in stays. False when a rebuild is needed.
 */
function updateInPlace(article: HTMLElement, step: Step, context: StepRenderContext): boolean {
  if (step.kind !== 'answer' && !(step.kind === 'thinking' && !step.done)) return false;
  const details = article.firstElementChild;
  if (!(details instanceof HTMLDetailsElement)) return false;
  const summary = summaryLine(step);
  if (details.firstElementChild?.outerHTML !== summary.outerHTML) details.firstElementChild?.replaceWith(summary);
  const body = details.children[1];
  if (!body) return true; // collapsed: the body is built from the step when opened
  if (step.kind === 'answer') {
    const markdown = streamingBodies.get(body);
    if (!markdown) return false;
    // Only the text added since the last frame: the frame's cost does not grow with the answer.
    markdown.append(step.text.slice(shownLength.get(body) ?? 0));
    shownLength.set(body, step.text.length);
    body.setAttribute('aria-busy', String(!step.done));
    // Streamed text that turns out to be the answer (no tool call followed) gets the answer hook too.
    if (step.messageKind === 'answer') body.setAttribute('data-testid', 'answer');
    else body.removeAttribute('data-testid');
    syncAnswerActions(details, step, context);
  } else {
    body.append(step.text.slice(shownLength.get(body) ?? 0)); // thinking only grows while it is live
    shownLength.set(body, step.text.length);
  }
  return true;
}

function noticeBody(step: NoticeStep, context: StepRenderContext): HTMLElement {
  const body = element('div', `notice level-${step.level}`);
  body.dataset['testid'] = 'notice';
  body.dataset['code'] = step.code;
  if (step.phase) {
    body.append(element('div', undefined, step.phase.reason ?? 'The tool phase ended.'));
    const models = element('div', 'phase-models');
    models.dataset['testid'] = 'phase-switch';
    phaseLabel(step.phase).models.forEach((model, index) => {
      if (index > 0) models.append(element('span', 'arrow', ' → '));
      const label = element('span', 'model-label', model);
      label.title = model;
      models.append(label);
    });
    body.append(models);
  } else {
    body.textContent = step.message;
  }
  const action = step.action;
  const onCommand = context.onCommand;
  if (action && onCommand) {
    const button = element('button', 'notice-action', action.label);
    button.dataset['testid'] = 'notice-action';
    button.dataset['command'] = action.command;
    button.addEventListener('click', () => onCommand(action.command));
    const actions = element('div', 'notice-actions');
    actions.append(button);
    body.append(actions);
  }
  return body;
}

function errorBody(step: ErrorStep, context: StepRenderContext): HTMLElement {
  const body = element('div', 'error-body');
  body.setAttribute('role', 'alert');
  body.append(element('div', 'error-message', step.message));
  if (step.suggestion) {
    const suggestion = element('div', 'suggestion', step.suggestion);
    suggestion.dataset['testid'] = 'error-suggestion';
    body.append(suggestion);
  }
  const onResend = context.onResend;
  if (onResend) {
    // Once the cause is fixed, the question is one click (and an Enter) away instead of retyped.
    // Not "Ask again": Retry, beside Send, asks it again as it is; this is for changing it first.
    const resend = element('button', 'notice-action', 'Edit and ask');
    resend.dataset['testid'] = 'resend';
    resend.title = 'Puts the question back in the prompt box, to change it and send it again (Retry, beside Send, asks it again as it is)';
    resend.addEventListener('click', () => onResend(step.id));
    const actions = element('div', 'notice-actions');
    actions.append(resend);
    body.append(actions);
  }
  return body;
}

/** A 16-px pencil in the text's colour. */
export function pencilIcon(): SVGSVGElement {
  const namespace = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(namespace, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const shape = document.createElementNS(namespace, 'path');
  // The shaft from the lower left to the upper right, its tip at the lower left.
  shape.setAttribute('d', 'M2.5 13.5 3.3 10.2 10.6 2.9 13.1 5.4 5.8 12.7Z M9.4 4.1 11.9 6.6');
  shape.setAttribute('fill', 'none');
  shape.setAttribute('stroke', 'currentColor');
  shape.setAttribute('stroke-width', '1.2');
  shape.setAttribute('stroke-linejoin', 'round');
  svg.append(shape);
  return svg;
}

function userBody(step: UserStep, context: StepRenderContext): HTMLElement {
  const text = withAutoDirection(element('div', 'user-text', step.text));
  const images = resultImages(step);
  const onEdit = context.onEdit;
  if (!onEdit || step.asks === undefined || context.editableRun?.() !== step.asks) {
    if (!images) return text;
    const body = element('div');
    body.append(text, images);
    return body;
  }
  // A pencil, not a word: the question reads as it was asked (in the panel, a copy of it, its text).
  const body = element('div', 'user-body');
  const edit = iconButton('edit-question', 'Edit question', 'Edit: change this question and ask it in place of this try (which stays here, marked)', pencilIcon(), () => onEdit(step));
  body.append(text, edit);
  if (!images) return body;
  const withImages = element('div');
  withImages.append(body, images);
  return withImages;
}

function body(step: Step, context: StepRenderContext): HTMLElement {
  switch (step.kind) {
    case 'user':
      return userBody(step, context);
    case 'steer':
      return withAutoDirection(element('div', 'user-text', step.text));
    case 'thinking':
      return thinkingBody(step);
    case 'tool-call':
      return toolCallBody(step);
    case 'tool-result':
      return toolResultBody(step);
    case 'answer':
      return answerBody(step, context);
    case 'notice':
      return noticeBody(step, context);
    case 'error':
      return errorBody(step, context);
    case 'approval':
      return element('div', undefined, step.summary);
    case 'elicitation':
      return element('div', undefined, step.message);
    case 'condensed':
      return condensedBody(step);
  }
}

/** Creates the element for a step. */
export function createStepElement(step: Step, context: StepRenderContext): HTMLElement {
  if (step.kind === 'approval') return createApprovalCard(step, context);
  if (step.kind === 'elicitation') return createElicitationCard(step, context);
  const article = element('article', `step step-${step.kind}`);
  if (step.kind === 'user') {
    article.dataset['testid'] = 'user-message';
  } else {
    article.dataset['testid'] = 'step';
    article.dataset['kind'] = step.kind;
  }
  article.dataset['stepId'] = step.id;
  updateStepElement(article, step, context);
  return article;
}

/** Refreshes `article` to show `step` as it is now. */
export function updateStepElement(article: HTMLElement, step: Step, context: StepRenderContext): void {
  // Written only when it changes: a streaming answer comes through here every frame.
  const setAside = String(step.setAside === true);
  if (article.dataset['setAside'] !== setAside) article.dataset['setAside'] = setAside;
  if (step.kind === 'approval') {
    updateApprovalCard(article, step, context);
    return;
  }
  if (step.kind === 'elicitation') {
    updateElicitationCard(article, step, context);
    return;
  }
  if (step.model) article.dataset['model'] = step.model.role;
  if (step.kind === 'tool-call' || step.kind === 'tool-result') article.dataset['state'] = step.state;
  if (step.kind === 'answer') {
    article.dataset['messageKind'] = step.messageKind;
    article.dataset['done'] = String(step.done);
  }
  if (step.kind === 'thinking') article.dataset['done'] = String(step.done);
  if (step.kind === 'notice' || (step.kind === 'error' && step.code)) article.dataset['code'] = step.code;
  if (updateInPlace(article, step, context)) return;

  const open = context.userOpen.get(step.id) ?? defaultOpen(step);
  const details = element('details');
  details.open = open;
  details.append(summaryLine(step));
  if (open) {
    details.append(body(step, context));
    syncAnswerActions(details, step, context);
  }
  // The user's choice is what their click on the title asks for. Not the toggle
  // event: setting `open` above fires one too, later, and taking that as a
  // choice kept a live thinking step open once it was done.
  details.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('summary') : null;
    if (target !== null && target === details.firstElementChild) context.userOpen.set(step.id, !details.open);
  });
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) {
      details.append(body(step, context));
      syncAnswerActions(details, step, context);
    }
  });
  // A keyboard user on this step's title stays there when the step is redrawn (a thought that finished).
  const hadFocus = article.contains(document.activeElement) && document.activeElement?.tagName === 'SUMMARY';
  article.replaceChildren(details);
  if (hadFocus) details.querySelector('summary')?.focus();
}
