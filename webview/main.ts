// The panel's entry point: builds the layout once, applies messages from the
// host to the view model, and renders what changed at most once per frame.
import type { FromWebview, ToWebview } from '../src/protocol/webviewMessages';
import { registerComponents } from './components';
import { FrameScheduler } from './frameScheduler';
import { buildLayout, type Layout } from './layout';
import { revertOffer } from './revertOffer';
import { retryOffer } from './retryOffer';
import { createStepElement, updateStepElement, type StepRenderContext } from './stepView';
import { renderUsage } from './usageView';
import { createConversationView, touch, type ConversationView } from './steps';
import { waitingForApproval } from './approvalEvents';
import { waitingForElicitation } from './elicitationEvents';
import { attachSlashCommands } from './slashCommands';
import { attachContextChips } from './contextChips';
import { attachFollowUpDrawer } from './followUpDrawer';
import { attachContextPicker } from './contextPicker';
import { applyEvents, expireApprovals } from './viewModel';
import { PanelState } from './panelState';
import { createWelcomeView } from './welcomeView';
import { createLiveStatus, StepAnnouncer } from './announcements';
import { attachPromptRecall, recallable, type PromptRecall } from './promptRecall';
import { linkTarget } from './linkTargets';
import { attachImagePaste } from './imagePaste';
import { attachPromptDrop } from './promptDrop';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: FromWebview) => vscode.postMessage(message);
const saved = new PanelState(vscode, undefined, (text) => post({ type: 'draft', text }));

registerComponents();

let view: ConversationView = createConversationView();
let conversationId: string | undefined;
const elements = new Map<string, HTMLElement>();
const liveStatus = createLiveStatus();
document.body.append(liveStatus.element);
const announcer = new StepAnnouncer(liveStatus.say);
const context: StepRenderContext = {
  onCopy: (text) => {
    post({ type: 'copy', text });
    liveStatus.say('Copied to the clipboard.');
  },
  onInsert: (text, language) => post({ type: 'insertCode', text, ...(language !== undefined && { language }) }),
  userOpen: new Map(),
  onCommand: (command) => post({ type: 'command', command }),
  onApproval: (id, answer, note) => {
    post({ type: 'approval', id, answer, ...(note !== undefined && { note }) });
    // The answered card's buttons go disabled, which would drop focus to the page: move it on to the
    // next card waiting (the card, not its Approve: a second Enter must not approve what was not read), else the prompt box.
    requestAnimationFrame(() => {
      const next = [...document.querySelectorAll<HTMLElement>('[data-testid="approval"][data-status="pending"]')].find((card) => card.querySelector('[data-testid="approve"]:not([disabled])'));
      if (next) next.focus();
      else layout.focusPrompt();
    });
  },
  onOpenDiff: (id) => post({ type: 'openDiff', id }),
  editableRun: () => offered,
  onEdit: (step) => {
    if (step.asks !== undefined && step.asks === offered) layout.editQuestion(step.asks, step.typed);
  },
  onResend: (errorStepId) => {
    const at = view.steps.findIndex((step) => step.id === errorStepId);
    const question = view.steps.slice(0, at).reverse().find((step) => step.kind === 'user');
    if (question?.kind === 'user') layout.setPrompt(question.typed);
  },
  onElicitation: (id, action, content) =>
    post({ type: 'elicitation', id, action, content: content && Object.fromEntries(Object.entries(content).map(([name, value]) => [name, typeof value === 'object' ? [...value] : value])) }),
};

const layout: Layout = buildLayout(document.body, {
  post: (message) => {
    if (message.type === 'send') promptRecall?.reset();
    post(message);
  },
  isRunning: () => view.running,
  draft: saved.initialDraft,
  saveDraft: (draft) => saved.setDraft(draft),
});

// While no model is usable, the welcome view stands above the conversation.
const welcome = createWelcomeView(post);
layout.steps.before(welcome.element);

const promptBox = document.querySelector<HTMLTextAreaElement>('[data-testid="prompt"]');
const slashCommands = promptBox === null ? undefined : attachSlashCommands(promptBox);
const pastedImages = promptBox === null ? undefined : attachImagePaste(promptBox, post);
const contextChips = promptBox === null ? undefined : attachContextChips(promptBox, post, (path) => pastedImages?.thumbnail(path));
if (promptBox !== null && pastedImages !== undefined) attachPromptDrop(promptBox, post, pastedImages);
const followUps = promptBox === null ? undefined : attachFollowUpDrawer(promptBox, post, (text) => layout.takeBack(text));
const contextPicker = promptBox === null ? undefined : attachContextPicker(promptBox, post);
// After the suggestion lists: while one is open, the arrows move in it.
const promptRecall: PromptRecall | undefined =
  promptBox === null
    ? undefined
    : attachPromptRecall(promptBox, () => recallable(view.steps), (text) => saved.setDraft(text));

// Follow the newest step unless the user scrolled up to read. Only scrolling
// right after a user gesture counts: off-screen steps (content-visibility)
// change height after our own scrolls, which must not turn following off.
let followTail = true;
let lastGesture = 0;
for (const gesture of ['wheel', 'pointerdown', 'keydown', 'touchmove'] as const) {
  layout.steps.addEventListener(gesture, () => (lastGesture = performance.now()), { passive: true });
}
layout.steps.addEventListener(
  'scroll',
  () => {
    if (isNearBottom(layout.steps)) followTail = true;
    else if (performance.now() - lastGesture < 1000) followTail = false;
  },
  { passive: true },
);

/** The run Retry and Edit are offered for; its question shows Edit. */
let offered: string | undefined;

/** When the offer moves (a run began or ended), the questions losing and gaining Edit are redrawn. */
function refreshOffer(): void {
  const offer = retryOffer(view);
  if (offer === offered) return;
  for (const step of view.steps) {
    if (step.kind === 'user' && step.asks !== undefined && (step.asks === offered || step.asks === offer)) touch(view, step);
  }
  offered = offer;
}

function render(): void {
  refreshOffer();
  let stick = followTail;
  // New steps come at the end, in order; changed ones are refreshed in place.
  // A step may also move above the one after it (a phase step above the reply
  // it ended, see customEvents.ts): each dirty step goes before its successor.
  const steps = view.dirty.size ? view.steps : [];
  // While no run goes the log is a live region itself: what changes in it now is read from it, not said twice.
  // A run starting in this frame turns the log off before a screen reader reads it: the status line speaks then.
  const logReads = !view.running && layout.steps.getAttribute('aria-live') === 'polite';
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    if (!view.dirty.has(step.id)) continue;
    const next = steps[index + 1];
    const nextElement = (next && elements.get(next.id)) ?? null;
    const existing = elements.get(step.id);
    if (existing) {
      updateStepElement(existing, step, context);
      if (nextElement && existing.nextElementSibling !== nextElement) layout.steps.insertBefore(existing, nextElement);
    } else {
      const created = createStepElement(step, context);
      elements.set(step.id, created);
      layout.steps.insertBefore(created, nextElement);
      if (step.kind === 'user') stick = true; // a new question always brings the view down
    }
    if ((step.kind === 'answer' || step.kind === 'thinking') && step.discarded) elements.get(step.id)!.hidden = true;
    if (logReads) announcer.hear([step]);
    else announcer.observe(step);
  }
  view.dirty.clear();
  announcer.flush();
  if (view.chromeDirty) {
    view.chromeDirty = false;
    renderUsage(layout.usage, view.usage, [...view.usageByRun.values()], view.running, view.steps.some((step) => step.kind === 'user'));
    layout.setContext(view.context);
    layout.setRunning(view.running);
    layout.setPlan(view.plan, view.running);
    layout.setEdits(revertOffer(view));
    layout.setRetry(offered);
    document.body.dataset['waiting'] = waitingForApproval(view) ? 'approval' : waitingForElicitation(view) ? 'elicitation' : 'none';
  }
  layout.setEmpty(view.steps.length === 0);
  if (stick) {
    followTail = true;
    layout.steps.scrollTop = layout.steps.scrollHeight;
    // Once more after the browser has sized the new content.
    requestAnimationFrame(() => {
      if (followTail) layout.steps.scrollTop = layout.steps.scrollHeight;
    });
  }
}

function isNearBottom(container: HTMLElement): boolean {
  return container.scrollHeight - container.scrollTop - container.clientHeight < 80;
}

const scheduler = new FrameScheduler(render);

function reset(id: string): void {
  conversationId = id;
  promptRecall?.reset();
  view = createConversationView();
  announcer.reset();
  liveStatus.clear();
  elements.clear();
  context.userOpen.clear();
  layout.steps.replaceChildren();
}

/** Until the host answers `ready`, its event batches are already in that answer. */
let awaitingConversation = true;

window.addEventListener('message', (message: MessageEvent<ToWebview>) => {
  const data = message.data;
  switch (data.type) {
    case 'conversation': {
      const continues = data.continues === true && awaitingConversation && data.id === conversationId;
      awaitingConversation = false;
      // Whether the host has answered `ready` (a bench posting its own conversation waits for it).
      document.body.dataset['conversation'] = data.id;
      if (continues) document.body.dataset['resumedEvents'] = String(data.events.length);
      else reset(data.id);
      applyEvents(view, data.events);
      // What the conversation held before it came to the panel is not news.
      announcer.hear(view.steps);
      view.running = data.running;
      saved.onConversation(data.id, data.events, data.position, data.running, continues);
      // A stored conversation's unanswered approvals can no longer be answered.
      if (!data.running) expireApprovals(view);
      view.chromeDirty = true;
      scheduler.schedule();
      return;
    }
    case 'events':
      if (awaitingConversation || data.conversationId !== conversationId) return;
      applyEvents(view, data.events);
      saved.onEvents(data.events, data.position, view.running);
      scheduler.schedule();
      return;
    case 'settings':
      layout.setSettings(data.settings);
      return;
    case 'history':
      layout.setHistory(data.conversations, conversationId, data.deleted);
      return;
    case 'models':
      layout.setModels(data.role, data.models, data.error);
      return;
    case 'mcpStatus':
      layout.setMcpStatus(data.servers);
      return;
    case 'slashCommands':
      slashCommands?.setCommands(data.commands);
      return;
    case 'attachedContext':
      contextChips?.set(data.chips);
      pastedImages?.keepOnly(data.chips.map((chip) => chip.path));
      return;
    case 'followUps':
      followUps?.set(data.items, data.held, data.canSteer === true);
      return;
    case 'contextSuggestions':
      contextPicker?.setSuggestions(data.query, data.suggestions);
      return;
    case 'focusPrompt':
      promptBox?.focus();
      return;
    case 'welcome':
      welcome.set(data.welcome);
      return;
    case 'modelsChecked':
      welcome.checked();
      return;
    case 'draft':
      layout.restoreDraft(data.text);
      return;
    case 'prompt':
      if (data.after) layout.takeBack(data.text);
      else layout.setPrompt(data.text);
      if (data.held) welcome.held();
      if (data.send) layout.send();
      return;
  }
});

// A page that was hidden comes back from its snapshot at once; the host sends only what came after.
const snapshot = saved.snapshot;
if (snapshot) {
  reset(snapshot.conversationId);
  applyEvents(view, snapshot.events);
  announcer.hear(view.steps);
  view.running = snapshot.running;
  view.chromeDirty = true;
  document.body.dataset['restoredEvents'] = String(snapshot.events.length);
  render();
}
// A link to a workspace file opens it in an editor (the host checks the path); web links are VS Code's to open.
// VS Code's own handler listens on the window and opens whatever the link resolves to, so the event stops here.
const onLinkClick = (event: MouseEvent) => {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!link) return;
  const target = linkTarget(link.getAttribute('href') ?? '');
  if (target.kind === 'web') return;
  event.preventDefault();
  event.stopPropagation();
  if (target.kind === 'file' && event.type === 'click') post({ type: 'openFile', path: target.path, ...(target.line !== undefined && { line: target.line }) });
};
document.addEventListener('click', onLinkClick);
document.addEventListener('auxclick', onLinkClick);
// VS Code's "Focus on … View" focuses the webview, not a control in it: the keyboard goes to the prompt box
// (unless a click did it: that click chose where focus goes).
let lastPointerDown = -Infinity;
document.addEventListener('pointerdown', () => (lastPointerDown = performance.now()), true);
window.addEventListener('focus', () => {
  setTimeout(() => {
    if (document.activeElement !== document.body || performance.now() - lastPointerDown <= 500) return;
    // Text the user selected stays selected; a pending card is not to be passed over for the prompt box.
    if (!(window.getSelection()?.isCollapsed ?? true) || (document.body.dataset['waiting'] ?? 'none') !== 'none') return;
    promptBox?.focus();
  }, 0);
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') saved.flush();
});
post(snapshot ? { type: 'ready', resume: { conversationId: snapshot.conversationId, ...snapshot.position } } : { type: 'ready' });
