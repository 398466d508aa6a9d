// The panel's fixed frame: header controls, model pickers, history, the step
// list, the revert bar, usage and the prompt box. Built once; setters update it.
import type { McpServerStatus } from '../src/mcp/mcpServerStatus';
import type { ModelRole, ContextPayload } from '../src/protocol/agentEvents';
import type { ConversationSummary, FromWebview, PanelSettings } from '../src/protocol/webviewMessages';
import { shortWhen } from './historyDates';
import { button, setDisabled, setLabel, type ButtonElement } from './components';
import { createUsagePanel } from './usageView';
import { createContextMeter } from './contextMeterView';
import type { RevertOffer } from './revertOffer';
import { serverLabels } from './mcpServerLabels';
import { rovingFocus } from './rovingFocus';
import { createPlanView } from './todoListView';
import type { TodoItem } from '../src/tools/tool';

/** History offers a filter from this many conversations on. */
const HISTORY_FILTER_FROM = 8;

export interface LayoutHooks {
  readonly post: (message: FromWebview) => void;
  readonly isRunning: () => boolean;
  readonly draft: string;
  readonly saveDraft: (draft: string) => void;
}

export interface Layout {
  readonly steps: HTMLElement;
  readonly usage: HTMLElement;
  setRunning(running: boolean): void;
  setSettings(settings: PanelSettings): void;
  /** `deleted`: the conversation deleted last, while Undo can still bring it back. */
  setHistory(conversations: readonly ConversationSummary[], currentId: string | undefined, deleted?: ConversationSummary): void;
  setModels(role: ModelRole, models: readonly string[], error: string | undefined): void;
  setMcpStatus(servers: readonly McpServerStatus[]): void;
  /** The plan above the prompt box: the conversation's newest todo list, if any (todoListView.ts). */
  setPlan(items: readonly TodoItem[] | undefined, running: boolean): void;
  /** The revert bar: the edits Revert would undo, if any. */
  setEdits(offer: RevertOffer | undefined): void;
  /** Retry: the run whose question it asks again, or undefined when none can be (retryOffer.ts). */
  setRetry(runId: string | undefined): void;
  /** Edit: puts the question of `runId` in the prompt box; Send then asks it in place of that try. */
  editQuestion(runId: string, text: string): void;
  setEmpty(empty: boolean): void;
  /** The context meter: the last request's tokens against its model's window. */
  setContext(context: ContextPayload | undefined): void;
  setPrompt(text: string): void;
  /** A queued message's Edit: its text back into the prompt box, after what the box holds. */
  takeBack(text: string): void;
  /** The draft the host kept over a window reload: into the prompt box only while it is empty. */
  restoreDraft(text: string): void;
  focusPrompt(): void;
  send(): void;
}

function div(className: string, testId?: string): HTMLDivElement {
  const node = document.createElement('div');
  node.className = className;
  if (testId) node.dataset['testid'] = testId;
  return node;
}

/** How a server's state reads in the status line. Servers start on the first agent run, so until then (and after Tandem ends them) they have not started, not stopped. */
function stateLabel(state: McpServerStatus['state']): string {
  if (state === 'signInRequired') return 'sign-in required';
  if (state === 'stopped') return 'not started';
  return state;
}

function modelPicker(role: ModelRole, hooks: LayoutHooks): { root: HTMLElement; input: HTMLInputElement; list: HTMLDataListElement } {
  const root = div('picker');
  const label = document.createElement('label');
  const id = `model-${role}`;
  label.htmlFor = id;
  label.textContent = role === 'function-call' ? 'Function-call model' : 'Answer model';
  const input = document.createElement('input');
  input.id = id;
  input.dataset['testid'] = id;
  input.type = 'text';
  input.spellcheck = false;
  input.setAttribute('list', `${id}-list`);
  if (role === 'answer') input.placeholder = 'same as function-call model';
  const list = document.createElement('datalist');
  list.id = `${id}-list`;
  let requested = false;
  input.addEventListener('focus', () => {
    if (!requested) {
      requested = true;
      hooks.post({ type: 'listModels', role });
    }
  });
  input.addEventListener('change', () => hooks.post({ type: 'selectModel', role, model: input.value.trim() }));
  root.append(label, input, list);
  return { root, input, list };
}

/** What the two response modes show; both stream the final answer. */
const RESPONSE_MODE_TITLE =
  "Integrated: one final answer that weaves in the tool results. Streaming: also the model's interim text and each tool result as its own message, as they arrive. Both stream the answer. Click to switch.";

export function buildLayout(root: HTMLElement, hooks: LayoutHooks): Layout {
  let settings: PanelSettings = { mode: 'agent', responseMode: 'integrated', functionCallModel: '', answerModel: '' };

  const header = div('header');
  header.setAttribute('role', 'toolbar');
  header.setAttribute('aria-label', 'Tandem controls');
  const modeToggle = button({
    label: 'Agent mode',
    testId: 'mode-toggle',
    title: 'Switch between Agent mode (tools) and Chat mode (no tools)',
    onClick: () => hooks.post({ type: 'setMode', mode: settings.mode === 'agent' ? 'chat' : 'agent' }),
  });
  const responseToggle = button({
    label: 'Integrated',
    testId: 'response-mode',
    title: RESPONSE_MODE_TITLE,
    onClick: () =>
      hooks.post({ type: 'setResponseMode', mode: settings.responseMode === 'integrated' ? 'streaming' : 'integrated' }),
  });
  const newChat = button({ label: 'New chat', testId: 'new-chat', onClick: () => hooks.post({ type: 'newChat' }) });
  const historyButton = button({ label: 'History', testId: 'history-toggle', onClick: () => toggleHistory() });
  header.append(modeToggle, responseToggle, newChat, historyButton);
  rovingFocus(header, [modeToggle, responseToggle, newChat, historyButton]);

  const models = document.createElement('details');
  models.className = 'models';
  const modelsSummary = document.createElement('summary');
  modelsSummary.textContent = 'Models';
  const functionCallPicker = modelPicker('function-call', hooks);
  const answerPicker = modelPicker('answer', hooks);
  const modelsError = div('muted models-error');
  models.append(modelsSummary, functionCallPicker.root, answerPicker.root, modelsError);

  const mcpStatus = div('mcp-status muted', 'mcp-status');
  mcpStatus.setAttribute('aria-live', 'polite');
  // The custom agent runs work as, while there is one; a press picks another.
  const customAgentLine = div('custom-agent muted');
  customAgentLine.hidden = true;
  const customAgentButton = button({
    label: '',
    testId: 'custom-agent',
    title: 'The custom agent every run works as (its instructions and tools). Click to choose another, or none.',
    onClick: () => hooks.post({ type: 'command', command: 'tandem.chooseCustomAgent' }),
  });
  customAgentLine.append('Custom agent: ', customAgentButton);

  const history = div('history', 'history');
  /** The entry just deleted and where it was, until the list comes back without it. */
  let deleting: { readonly id: string; readonly index: number } | undefined;
  /** The entry Undo is bringing back, until the list has it again. */
  let restoring: string | undefined;
  history.id = 'history';
  history.setAttribute('role', 'list');
  history.setAttribute('aria-label', 'Earlier conversations');
  historyButton.setAttribute('aria-controls', 'history');
  // Finds a conversation by a word of its title: a list of 100 is long to read through.
  const historyFilter = document.createElement('input');
  historyFilter.type = 'search';
  historyFilter.className = 'history-filter';
  historyFilter.dataset['testid'] = 'history-filter';
  historyFilter.placeholder = 'Filter conversations';
  historyFilter.setAttribute('aria-label', 'Filter conversations by title');
  historyFilter.setAttribute('aria-controls', 'history');
  const noMatch = div('muted history-no-match');
  noMatch.textContent = 'No conversation matches.';
  noMatch.setAttribute('role', 'status');
  // Said to a screen reader as the filter changes: how many rows it leaves.
  const filterCount = div('visually-hidden');
  filterCount.dataset['testid'] = 'history-filter-count';
  filterCount.setAttribute('role', 'status');
  // A live region speaks whenever its text is written: the list drawn again
  // (a run ended) with the same count must not say it again.
  const sayCount = (text: string) => {
    if (filterCount.textContent !== text) filterCount.textContent = text;
  };
  const applyFilter = () => {
    const words = historyFilter.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of history.querySelectorAll<HTMLElement>('.history-item')) {
      const title = (item.dataset['title'] ?? '').toLocaleLowerCase();
      item.hidden = !words.every((word) => title.includes(word));
      if (!item.hidden) shown++;
    }
    noMatch.hidden = history.hidden || words.length === 0 || shown > 0;
    const total = history.querySelectorAll('.history-item').length;
    sayCount(history.hidden || words.length === 0 || shown === 0 ? '' : `${shown} of ${total} conversations match.`);
    // An empty list's frame would sit above the "no match" line.
    history.classList.toggle('none-shown', !noMatch.hidden);
  };
  historyFilter.addEventListener('input', applyFilter);
  historyFilter.addEventListener('keydown', (event) => {
    // An input method's Escape cancels what it composes, not the filter.
    if (event.key !== 'Escape' || event.isComposing) return;
    // Escape empties the filter first; a second one closes the list.
    if (historyFilter.value === '') return closeOnEscape(event);
    event.preventDefault();
    historyFilter.value = '';
    applyFilter();
  });
  const showHistory = (open: boolean) => {
    history.hidden = !open;
    // Offered once the list is long enough to need it.
    historyFilter.hidden = !open || history.querySelectorAll('.history-item').length < HISTORY_FILTER_FROM;
    if (historyFilter.hidden && historyFilter.value) {
      historyFilter.value = '';
      applyFilter();
    }
    // Open, the filter decides both (cleared first, they would be said again); closed, neither is said.
    if (open) applyFilter();
    else {
      noMatch.hidden = true;
      sayCount('');
    }
    historyButton.setAttribute('aria-expanded', String(open));
    // "5 min" was true when the list was drawn: opened later, it is told again.
    if (open) for (const when of history.querySelectorAll<HTMLElement>('.history-when')) when.textContent = shortWhen(Number(when.dataset['updatedAt']), Date.now());
  };
  const toggleHistory = () => showHistory(history.hidden);
  const undoRow = (deleted: ConversationSummary): HTMLElement => {
    const row = div('history-undo');
    row.setAttribute('role', 'listitem');
    const title = deleted.title || 'Untitled';
    const said = div('muted');
    said.textContent = `Deleted “${title}”.`;
    said.dir = 'auto';
    const undo = document.createElement('button');
    undo.type = 'button';
    undo.className = 'link undo';
    undo.textContent = 'Undo';
    undo.dataset['testid'] = 'history-undo';
    undo.setAttribute('aria-label', `Undo: restore conversation ${title}`);
    undo.addEventListener('click', () => {
      restoring = deleted.id;
      hooks.post({ type: 'undoDelete' });
    });
    row.append(said, undo);
    return row;
  };
  showHistory(false);
  // Escape closes the list and gives the keyboard back to its button.
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    showHistory(false);
    historyButton.focus();
  };
  history.addEventListener('keydown', closeOnEscape);

  const steps = div('steps', 'steps');
  steps.setAttribute('role', 'log');
  // Polite while idle; off during a run, when the announcer speaks for it (announcements.ts).
  steps.setAttribute('aria-live', 'polite');
  steps.setAttribute('aria-label', 'Conversation');
  steps.tabIndex = 0;
  const empty = div('empty muted');
  empty.textContent = 'Ask about your workspace. Enter sends, Shift+Enter adds a line; @ attaches files and more, and a pasted image goes with your message.';

  const plan = createPlanView();
  const revertBar = div('revert-bar');
  revertBar.hidden = true;
  let revertRunId: string | undefined;
  const revert = button({
    label: "Revert this run's edits",
    testId: 'revert-run',
    onClick: () => revertRunId && hooks.post({ type: 'revertRun', runId: revertRunId }),
  });
  const revertText = document.createElement('span');
  revertText.className = 'muted';
  revertBar.append(revertText, revert);

  const usage = createUsagePanel();

  const composer = div('composer');
  const prompt = document.createElement('textarea');
  prompt.dataset['testid'] = 'prompt';
  prompt.rows = 3;
  prompt.placeholder = 'Ask Tandem…';
  prompt.setAttribute('aria-label', 'Prompt. Enter sends, Shift+Enter adds a new line. While a run goes, Enter queues and Ctrl+Enter sends into the run.');
  prompt.value = hooks.draft;
  // What the prompt box is for right now (editing the last question).
  const busyHint = div('composer-hint muted', 'composer-hint');
  busyHint.setAttribute('role', 'status');
  busyHint.hidden = true;
  // Edit: the run whose question the prompt box holds, to be asked in its place; and what the box held before.
  let editing: { runId: string; draft: string } | undefined;
  const stopEditing = (restoreDraft: boolean) => {
    if (!editing) return;
    if (restoreDraft) {
      prompt.value = editing.draft;
      hooks.saveDraft(editing.draft);
    }
    editing = undefined;
    busyHint.hidden = true;
  };
  /** `steer`: while a run goes, into that run (read before its next step) rather than after its answer. */
  const send = (steer = false) => {
    const text = prompt.value.trim();
    if (!text) return;
    if (hooks.isRunning()) {
      // Queued by the host, shown above the box; it goes when the run ends with an answer, or into the run (steer).
      hooks.post(steer ? { type: 'send', text, steer } : { type: 'send', text });
      prompt.value = '';
      hooks.saveDraft('');
      return;
    }
    if (editing) {
      // As if the question had been edited in place: the box gets back what it held before Edit.
      hooks.post({ type: 'retry', runId: editing.runId, text });
      stopEditing(true);
      return;
    }
    hooks.post({ type: 'send', text });
    prompt.value = '';
    hooks.saveDraft('');
  };
  prompt.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send(event.ctrlKey || event.metaKey);
    }
    // Escape in the prompt box stops a run, as Stop does; an open suggestion list takes it first (and closes).
    const plainEscape = event.key === 'Escape' && !event.isComposing && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey;
    if (plainEscape && hooks.isRunning()) {
      event.preventDefault();
      hooks.post({ type: 'stop' });
    } else if (plainEscape && editing) {
      // Leaves Edit: the box gets back what it held before.
      event.preventDefault();
      stopEditing(true);
    }
  });
  prompt.addEventListener('input', () => hooks.saveDraft(prompt.value));
  const sendButton = button({ label: 'Send', testId: 'send', appearance: 'primary', onClick: () => send() });
  const stopButton = button({ label: 'Stop', testId: 'stop', title: 'Stop the run (Escape in the prompt box)', onClick: () => hooks.post({ type: 'stop' }) });
  setDisabled(stopButton, true);
  let retryRunId: string | undefined;
  const retryButton = button({
    label: 'Retry',
    ariaLabel: 'Retry the last question',
    testId: 'retry',
    title: 'Ask the last question again. The models no longer see this try; it stays here, marked.',
    onClick: () => retryRunId && hooks.post({ type: 'retry', runId: retryRunId }),
  });
  retryButton.hidden = true;
  // While a run goes, Send waits; Queue (or Enter) lines the message up for when the run ends.
  const queueButton = button({
    label: 'Queue',
    ariaLabel: 'Queue this message',
    testId: 'queue',
    title: 'Queue this message: it is sent when the run ends with an answer (Enter does the same; Ctrl+Enter sends it into this run, read before its next step)',
    onClick: () => send(),
  });
  queueButton.hidden = true;
  const actions = div('composer-actions');
  const meter = createContextMeter();
  actions.append(meter.element, retryButton, queueButton, sendButton, stopButton);
  composer.append(prompt, busyHint, actions);

  root.append(header, models, mcpStatus, customAgentLine, historyFilter, filterCount, history, noMatch, empty, steps, plan.element, revertBar, usage, composer);

  return {
    steps,
    usage,
    setContext: meter.set,
    setRunning(running) {
      // A button about to be disabled would drop keyboard focus out of the panel: it goes to the prompt box.
      const focused = document.activeElement;
      if ((running && focused === sendButton) || (!running && (focused === stopButton || focused === queueButton))) prompt.focus();
      queueButton.hidden = !running;
      setDisabled(sendButton, running);
      setDisabled(stopButton, !running);
      document.body.dataset['running'] = String(running);
      steps.setAttribute('aria-live', running ? 'off' : 'polite');
      if (!running && !editing) busyHint.hidden = true;
    },
    setSettings(next) {
      settings = next;
      // The spoken name starts with the words shown (voice control says what it sees), then what a press does.
      const modeLabel = next.mode === 'agent' ? 'Agent mode' : 'Chat mode';
      setLabel(modeToggle, modeLabel, `${modeLabel}: switch to ${next.mode === 'agent' ? 'Chat' : 'Agent'} mode`);
      modeToggle.dataset['mode'] = next.mode;
      const responseLabel = next.responseMode === 'integrated' ? 'Integrated' : 'Streaming';
      setLabel(responseToggle as ButtonElement, responseLabel, `${responseLabel} response mode: switch to ${next.responseMode === 'integrated' ? 'Streaming' : 'Integrated'}`);
      responseToggle.dataset['mode'] = next.responseMode;
      // Chat mode calls no tools, so how tool results are shown does not apply there: said, not hidden (it is kept for Agent mode).
      responseToggle.title = next.mode === 'chat' ? `${RESPONSE_MODE_TITLE} Applies in Agent mode (Chat mode calls no tools).` : RESPONSE_MODE_TITLE;
      responseToggle.classList.toggle('inactive', next.mode === 'chat');
      if (document.activeElement !== functionCallPicker.input) functionCallPicker.input.value = next.functionCallModel;
      if (document.activeElement !== answerPicker.input) answerPicker.input.value = next.answerModel;
      customAgentLine.hidden = !next.customAgent;
      if (next.customAgent) setLabel(customAgentButton, next.customAgent, `Custom agent ${next.customAgent}: choose another`);
    },
    setHistory(conversations, currentId, restorable) {
      history.replaceChildren(
        ...conversations.map((conversation) => {
          const item = div('history-item');
          item.setAttribute('role', 'listitem');
          item.dataset['title'] = conversation.title || 'Untitled';
          item.dataset['id'] = conversation.id;
          const open = document.createElement('button');
          open.type = 'button';
          open.className = 'link';
          open.textContent = conversation.title || 'Untitled';
          open.dir = 'auto';
          // The title may be cut with an ellipsis in a narrow panel: the tooltip has all of it, and when it was last used.
          open.title = `${conversation.title || 'Untitled'}\n${new Date(conversation.updatedAt).toLocaleString()}`;
          if (conversation.id === currentId) open.setAttribute('aria-current', 'true');
          open.addEventListener('click', () => {
            hooks.post({ type: 'openConversation', id: conversation.id });
            showHistory(false);
            // The list (and the focused entry) hides: the keyboard goes on in the prompt box, as after Send.
            prompt.focus();
          });
          const remove = document.createElement('button');
          remove.type = 'button';
          remove.className = 'link muted';
          remove.textContent = '×';
          remove.setAttribute('aria-label', `Delete conversation ${conversation.title || 'Untitled'}`);
          remove.addEventListener('click', () => {
            // Its place among the rows shown: while filtering, the keyboard goes to the shown row that takes it.
            const shown = [...history.querySelectorAll('.history-item:not([hidden])')];
            deleting = { id: conversation.id, index: shown.indexOf(item) };
            hooks.post({ type: 'deleteConversation', id: conversation.id });
          });
          const when = document.createElement('span');
          when.className = 'muted history-when';
          when.dataset['updatedAt'] = String(conversation.updatedAt);
          when.textContent = shortWhen(conversation.updatedAt, Date.now());
          when.setAttribute('aria-hidden', 'true'); // the title's tooltip has the full date; a reader hears it there
          item.append(open, when, remove);
          return item;
        }),
      );
      if (conversations.length === 0) history.textContent = 'No earlier conversations.';
      // The list came again (a run ended, an entry was deleted): the filter stays as typed.
      showHistory(!history.hidden);
      // One click on × loses nothing: the entry it took stays restorable until the next delete or the next start.
      if (restorable !== undefined) history.prepend(undoRow(restorable));
      // Once the deleted entry is gone, the keyboard stays in the list: on the entry that took its place, else on History.
      const deleted = deleting;
      if (deleted !== undefined && !conversations.some((conversation) => conversation.id === deleted.id)) {
        const entries = [...history.querySelectorAll<HTMLButtonElement>('.history-item:not([hidden]) button.link:not(.muted)')];
        (entries[Math.min(deleted.index, entries.length - 1)] ?? history.querySelector<HTMLButtonElement>('button.undo') ?? historyButton).focus();
        deleting = undefined;
      }
      const restored = restoring === undefined ? -1 : conversations.findIndex((conversation) => conversation.id === restoring);
      if (restored >= 0) {
        history.querySelector<HTMLButtonElement>(`.history-item[data-id="${CSS.escape(restoring ?? "")}"] button.link:not(.muted)`)?.focus();
        restoring = undefined;
      }
    },
    setModels(role, names, error) {
      const picker = role === 'function-call' ? functionCallPicker : answerPicker;
      picker.list.replaceChildren(
        ...names.map((name) => {
          const option = document.createElement('option');
          option.value = name;
          return option;
        }),
      );
      modelsError.textContent = error ? `Model list unavailable (${error}); type a model name.` : '';
    },
    setMcpStatus(servers) {
      mcpStatus.dataset['count'] = String(servers.length);
      if (servers.length === 0) {
        mcpStatus.textContent = 'MCP: no servers configured.';
        mcpStatus.title = 'Add servers in .vscode/mcp.json or the tandem.mcp.servers setting.';
        return;
      }
      const labels = serverLabels(servers);
      mcpStatus.textContent =
        'MCP: ' +
        servers
          .map((server, index) => `${labels[index]} ${stateLabel(server.state)}${server.toolCount !== undefined ? ` (${server.toolCount} tools)` : ''}`)
          .join(', ');
      mcpStatus.title = servers.map((server, index) => (server.error ? `${labels[index]}: ${server.error}` : '')).filter(Boolean).join('\n');
      // A server that failed points to where its whole error, its log and Restart are.
      if (servers.some((server) => server.state === 'error')) {
        const manage = button({
          label: 'Show MCP Servers',
          testId: 'mcp-manage',
          title: 'Why a server failed, its log, Restart',
          onClick: () => hooks.post({ type: 'command', command: 'tandem.showMcpServers' }),
        });
        mcpStatus.append(' ', manage);
      }
      // A remote server waiting for sign-in gets its Sign in button right here.
      for (const [index, server] of servers.entries()) {
        if (server.state !== 'signInRequired') continue;
        const signIn = button({
          label: `Sign in to ${labels[index]}`,
          testId: 'mcp-sign-in',
          title: 'Opens the sign-in page in your browser',
          onClick: () => hooks.post({ type: 'mcpSignIn', name: server.name, source: server.source }),
        });
        signIn.dataset['server'] = server.name;
        mcpStatus.append(' ', signIn);
      }
    },
    setPlan(items, running) {
      plan.set(items, running);
    },
    setEdits(offer) {
      revertRunId = offer?.runId;
      // A hidden button would drop the keyboard focus to the page.
      if (!offer && revertBar.contains(document.activeElement)) prompt.focus();
      revertBar.hidden = !offer;
      if (offer) {
        // Name what Revert would undo; a long list shows its first few, the tooltip all.
        const files = offer.edits.files;
        const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ` and ${files.length - 3} more` : '');
        const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
        // An earlier run's edits (the last run changed nothing, or was reverted): say which run.
        revertText.textContent = offer.latest
          ? `${count} changed: ${shown}. `
          : `An earlier run${offer.question ? ` (“${firstWords(offer.question)}”)` : ''} changed ${count}: ${shown}. `;
        revertText.title = (offer.latest || !offer.question ? '' : `Asked: ${offer.question}\n`) + files.join('\n');
        setLabel(revert, offer.latest ? "Revert this run's edits" : "Revert that run's edits");
      }
    },
    setRetry(runId) {
      retryRunId = runId;
      // The question being edited is no longer the last one that ended (a run began, another conversation opened): the text stays, as a new question.
      if (editing && editing.runId !== runId) stopEditing(false);
      // A hidden button would drop the keyboard focus to the page.
      if (!runId && document.activeElement === retryButton) prompt.focus();
      retryButton.hidden = runId === undefined;
    },
    editQuestion(runId, text) {
      if (!editing) editing = { runId, draft: prompt.value };
      else editing.runId = runId;
      prompt.value = text;
      hooks.saveDraft(text);
      busyHint.textContent = 'Editing your last question: Send asks it in place of that try (which stays, marked). Escape cancels.';
      busyHint.hidden = false;
      prompt.focus();
      prompt.setSelectionRange(text.length, text.length);
    },
    setEmpty(isEmpty) {
      empty.hidden = !isEmpty;
    },
    setPrompt(text) {
      prompt.value = text;
      prompt.focus();
    },
    takeBack(text) {
      const draft = prompt.value.trimEnd();
      prompt.value = draft ? `${draft}\n\n${text}` : text;
      hooks.saveDraft(prompt.value);
      prompt.focus();
      prompt.setSelectionRange(prompt.value.length, prompt.value.length);
    },
    restoreDraft(text) {
      if (prompt.value !== '' || text === '') return;
      prompt.value = text;
      hooks.saveDraft(text);
    },
    focusPrompt() {
      prompt.focus();
    },
    send,
  };
}

/** A question's start, to name its run in one line (the tooltip has it whole). */
function firstWords(question: string, limit = 40): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length <= limit ? line : `${line.slice(0, limit - 1).trimEnd()}…`;
}
