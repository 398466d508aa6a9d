// The `tandem.chat` webview view: its HTML (strict CSP with a nonce), the
// transport to the panel (events merged and paced, panelEventQueue.ts), and the handling of
// every message from the panel, validated with zod first.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSettings } from '../agent/agentSettings';
import { CustomEventName, type AgentEvent, type ModelRole } from '../protocol/agentEvents';
import type { McpServerStatus } from '../mcp/mcpServerStatus';
import { parseFromWebview, type ContextSuggestion, type FromWebview, type PanelSettings, type SlashCommand, type ToWebview } from '../protocol/webviewMessages';
import { insertCodeAtCursor } from './codeInsertion';
import { readAttachments, type ContextAttachments } from './contextAttachments';
import { FollowUpQueue, type FollowUp } from './followUpQueue';
import type { SteerMessage, Steering } from '../agent/steering';
import { fetchModelList, pickModel, type ModelList, type PickedModel } from './modelPicker';
import { chooseCustomAgent } from './customAgentPicker';
import { panelHtml } from './panelHtml';
import { AgentSession, type MessageOptions, type ToolSources } from './agentSession';
import { ApprovalCenter } from './approvalCenter';
import { PanelElicitor } from './panelElicitor';
import { signalFromToken } from './cancellation';
import { useEndpoint } from './endpointSetup';
import { exportTranscript } from './transcriptExport';
import { ConversationStore, HistoryListError, type StoredConversation } from './conversationStore';
import { JsonFileState } from './jsonFileState';
import { imageAttachment } from './imageAttachment';
import { openProblemMessage, openStored, PanelReopen, type OpenProblem } from './conversationAtStart';
import { PanelEventQueue } from './panelEventQueue';
import { eventsAfter, positionOf, type StreamPosition } from '../protocol/streamPosition';
import { retryTarget } from '../protocol/retryTarget';
import { followUpsLeft } from '../protocol/followUpsLeft';
import { HostEventName } from '../protocol/hostEventNames';
import { randomUUID } from 'node:crypto';
import type { OutputLog } from './outputLog';
import { RunPreparation, WORKSPACE_TRUSTED_MESSAGE, type NoticeSink } from './runPreparation';
import { ApiKeys } from './secrets';
import { SettingsConsentStore } from './settingsConsentStore';
import { modelSettingKey, providerSettingKey, withApiKeys, writeSetting, writeUserSetting } from './settingsReader';
import { listVscodeModels, withVscodeContextWindows } from './vscodeChatModel';
import { ModelReadiness } from './modelReadiness';
import { modeNotice } from './modeNotice';
import { builtinCommands, expandBuiltinCommand } from '../agent/builtinCommands';
import { workspaceKey } from './workspaceIdentity';
import { openWorkspaceLink } from './workspaceLinkOpener';
import { openSettingWhereSet } from './settingsEditor';
import { workspaceValueApplies } from '../agent/settingsConsent';
import { ViewAttention } from './viewAttention';

/** The panel's view (package.json `contributes.views`). */
const CHAT_VIEW_ID = 'tandem.chat';

/** workspaceState: the prompt box's draft, for the page after a window reload. */
const PROMPT_DRAFT_KEY = 'tandem.promptDraft';

/** What the panel needs from MCP; the hub's status feed when MCP is wired. */
export interface McpStatusSource {
  statuses(): readonly McpServerStatus[];
  onDidChangeStatus(listener: () => void): { dispose(): unknown };
  /** The MCP prompts offered as slash commands. */
  slashCommands?(): readonly SlashCommand[];
  /** A slash command's prompt text (asking for arguments); undefined: not one; null: the user cancelled. */
  expandSlashCommand?(text: string): Promise<string | undefined | null>;
  /** Starts the sign-in of a remote server that asked for one. */
  signIn?(server: { readonly name: string; readonly source: string }): Promise<void>;
}

/** What a slash command sends: its text, and how it runs when it says (a prompt file's `mode: ask`, its `tools:`). */
export interface SlashExpansion extends MessageOptions {
  readonly text: string;
}

/** Slash commands besides the MCP prompts: the workspace's prompt files. */
export interface SlashCommandSource {
  commands(): readonly SlashCommand[];
  /** The message `text` becomes; undefined: not one of these commands; null: the user cancelled. */
  expand(text: string): Promise<SlashExpansion | undefined | null>;
  onDidChange(listener: () => void): { dispose(): unknown };
}

/** The next message's context chips and the `@` picker behind them. */
export interface ContextSource {
  readonly attachments: ContextAttachments;
  suggestions(query: string): Promise<readonly ContextSuggestion[]>;
  attachPick(kind: ContextSuggestion['kind'], path: string): Promise<boolean>;
  /** Files and folders dropped on the prompt box, as URIs. */
  attachDropped(uris: readonly string[]): Promise<void>;
}

export interface ChatViewOptions {
  readonly toolSources: () => ToolSources;
  readonly context?: ContextSource | undefined;
  readonly mcp?: McpStatusSource | undefined;
  readonly promptFiles?: SlashCommandSource | undefined;
  /** The user's answers about workspace setting values; one per window, shared with MCP. */
  readonly settingsConsent?: SettingsConsentStore | undefined;
  /** Runs before each run once its settings are known (starts the MCP servers the user allowed). */
  /** Before each run (MCP servers start); `notice` adds a line to the conversation. */
  readonly beforeRun?: ((settings: AgentSettings, notice: NoticeSink) => Promise<void>) | undefined;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly store: ConversationStore;
  private readonly keys: ApiKeys;
  private readonly preparation: RunPreparation;
  /** Whether any model is usable; the welcome view while none is. */
  private readonly readiness: ModelReadiness;
  private session: AgentSession;
  /** MCP servers' questions, answered by the panel's elicitation card. */
  private readonly elicitor = new PanelElicitor();
  /** The run's events on their way to the panel, merged and paced (panelEventQueue.ts). */
  private readonly queue = new PanelEventQueue({ send: (conversationId, events) => this.postEvents(conversationId, events) });
  private lastMode: string | undefined;
  /** A name for each conversation copy in memory, so a reopened panel's position is checked against the right one. */
  private readonly streams = new WeakMap<StoredConversation, string>();
  private lastResponseMode: string | undefined;
  private lastCustomAgent = '';
  /** Set by `focusPrompt` before the panel's page is up: focus the box once it says it is ready. */
  private focusWhenReady = false;
  /** At the page's first `ready`: the conversation that page showed before a reload, rather than another window's last. */
  private readonly reopen: PanelReopen;
  /** Messages sent while a run goes, to go when it ends (followUpQueue.ts). */
  private readonly followUps = new FollowUpQueue(() => this.postFollowUps());
  /** The page's first `ready` after this host started takes up the follow-ups the last window left queued (followUpsLeft.ts). */
  private firstReady = true;
  /** Images pasted into the prompt box so far: each chip's number. */
  private pastedImages = 0;
  /** The view's progress and badge, for when it is out of sight (viewAttention.ts). */
  private readonly attention = new ViewAttention(CHAT_VIEW_ID);

  private constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: OutputLog,
    private readonly options: ChatViewOptions,
    store: ConversationStore,
    initial: Awaited<ReturnType<ConversationStore['load']>>,
  ) {
    this.store = store;
    this.keys = new ApiKeys(context.secrets);
    this.preparation = new RunPreparation(
      options.settingsConsent ?? new SettingsConsentStore(context.globalState),
      this.keys,
      (warning) => this.log.warnOnce(warning),
    );
    this.readiness = new ModelReadiness(
      () => this.preparation.read(),
      this.keys,
      (welcome) => this.post({ type: 'welcome', welcome }),
    ).watch(context.secrets);
    this.disposables.push(this.readiness, this.attention);
    this.session = this.createSession(initial);
    this.reopen = new PanelReopen(store, this.session.current);
    const settings = this.settings();
    this.lastMode = settings.mode;
    this.lastResponseMode = settings.responseMode;
    this.lastCustomAgent = settings.customAgent ?? '';
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('tandem')) this.onSettingsChanged();
      }),
    );
    if (options.mcp) this.disposables.push(options.mcp.onDidChangeStatus(() => this.postMcpStatus()));
    if (options.promptFiles) this.disposables.push(options.promptFiles.onDidChange(() => this.postSlashCommands()));
    if (options.context) this.disposables.push(options.context.attachments.onDidChange(() => this.postAttachedContext()));
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.session.notice('workspaceTrusted', WORKSPACE_TRUSTED_MESSAGE);
        this.postSettings();
      }),
    );
  }

  /** Opens the store and the conversation the user had open last. */
  static async create(context: vscode.ExtensionContext, log: OutputLog, options: ChatViewOptions): Promise<ChatViewProvider> {
    const directory = vscode.Uri.joinPath(context.globalStorageUri, 'conversations', workspaceKey()).fsPath;
    const index = await JsonFileState.open(path.join(directory, 'index.json'));
    if (index.setAside) log.warn(`the history's index could not be read; it is kept as ${index.setAside} and the history is rebuilt from the conversation files`);
    const store = new ConversationStore(directory, index, Date.now, (message) => log.warn(message));
    const recovered = await store.recoverIndex().catch((error: unknown) => {
      log.error(`could not rebuild the history: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
    if (recovered > 0) log.info(`History lists ${recovered} conversation files again that it had lost`);
    // A conversation deleted in an earlier session and not restored goes for good now.
    await store.purgeDeleted({ atStart: true }).catch((error: unknown) => log.error(`could not remove a deleted conversation: ${error instanceof Error ? error.message : String(error)}`));
    // A conversation that cannot be opened does not stop the panel: it starts with a new one and says where the file is.
    const { conversation: initial, problem } = await openStored(store, store.currentId());
    if (problem) ChatViewProvider.tellOpenProblem(log, problem);
    return new ChatViewProvider(context, log, options, store, initial);
  }

  private static tellOpenProblem(log: OutputLog, problem: OpenProblem): void {
    log.error(`could not open the conversation ${problem.file}: ${problem.reason}`);
    void vscode.window.showWarningMessage(openProblemMessage(problem));
  }

  private createSession(initial: Awaited<ReturnType<ConversationStore['load']>>): AgentSession {
    return new AgentSession(
      {
        store: this.store,
        log: this.log,
        toolSources: this.options.toolSources,
        elicitor: this.elicitor,
        settings: async (mode) =>
          withVscodeContextWindows(
            await this.preparation.prepare((code, message, level, action) => this.session.notice(code, message, level, action), this.options.beforeRun, mode),
          ),
        modelSettings: async () =>
          withVscodeContextWindows(await this.preparation.prepare((code, message, level, action) => this.session.notice(code, message, level, action))),
        steering: this.steering,
        emit: (conversationId, event) => {
          this.queue.push(conversationId, event);
          this.noteSteerWindow(event);
          this.attention.onEvent(event);
          // A card nobody can see would stall the run: bring the panel up (keeping focus where it is).
          if (isPendingCard(event) && this.view?.visible !== true) void this.reveal();
        },
        onDidChangeRunning: (running) => {
          void vscode.commands.executeCommand('setContext', 'tandem.running', running);
          this.attention.busy(running);
          if (!running) this.setSteerOpen(false);
          if (!running) this.flush();
          this.postHistory();
          // A run may have settled the workspace's settings (consent): is a model usable now?
          if (!running && this.readiness.unusable) void this.readiness.check();
        },
        onRunEnded: (ending) => {
          this.attention.runEnded(ending);
          const next = this.followUps.afterRun(ending);
          // After the run's own ending has settled (its last save, the history).
          if (next) setTimeout(() => void this.sendFollowUp(next), 0);
        },
        onDidChangeHistory: () => this.postHistory(),
        onSaveProblem: (error) => {
          if (error === undefined) {
            void vscode.window.showInformationMessage('Tandem: the conversation is being saved again.');
            return;
          }
          const reason = error instanceof Error ? error.message : String(error);
          void vscode.window.showWarningMessage(
            error instanceof HistoryListError
              ? `Tandem saved this conversation, but ${reason}. It is listed in History as soon as that file can be written.`
              : `Tandem could not save this conversation (${reason}). The panel keeps it while this window is open and writes it as soon as saving works again; a reload before then loses what is not saved.`,
          );
        },
      },
      initial,
    );
  }

  private settings(): AgentSettings {
    return this.preparation.read().settings;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const webview = view.webview;
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    webview.options = { enableScripts: true, localResourceRoots: [media, dist] };
    webview.html = panelHtml(webview, media, dist);
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.attention.detach(view);
      }),
    );
    this.attention.attach(view);
  }

  /** Shows the panel (opening the sidebar container when needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand('tandem.chat.focus');
  }

  private post(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  private postEvents(conversationId: string, events: AgentEvent[]): PromiseLike<unknown> | undefined {
    const current = this.session.current;
    const position = current.id === conversationId ? this.positionOf(current) : undefined;
    return this.view?.webview.postMessage({ type: 'events', conversationId, events, position } satisfies ToWebview);
  }

  private flush(): void {
    this.queue.flush();
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseFromWebview(raw);
    if (!message) {
      this.log.warn(`ignored a malformed message from the panel: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    try {
      await this.handle(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.error(`panel action ${message.type} failed: ${text}`);
      void vscode.window.showErrorMessage(`Tandem: ${text}`);
    }
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        await this.reopenShown(message.resume?.conversationId);
        if (this.firstReady) {
          this.firstReady = false;
          this.takeUpFollowUpsLeft();
          // The page after a window reload: its own saved draft may be gone (code-server keeps none), this copy is not.
          const draft = this.context.workspaceState.get<unknown>(PROMPT_DRAFT_KEY);
          if (typeof draft === 'string' && draft !== '') this.post({ type: 'draft', text: draft });
        }
        this.postConversation(message.resume);
        this.postSettings();
        this.postHistory();
        this.postMcpStatus();
        this.postAttachedContext();
        this.postFollowUps();
        if (this.focusWhenReady) {
          this.focusWhenReady = false;
          this.post({ type: 'focusPrompt' });
        }
        this.preparation.noticeRestricted((code, message, level, action) => this.session.notice(code, message, level, action));
        this.post({ type: 'welcome', welcome: this.readiness.current ?? null });
        void this.readiness.check();
        return;
      case 'send': {
        if (this.session.running) {
          const queued = this.queueFollowUp(message.text);
          if (queued && message.steer === true) await this.onFollowUpAction('steer', queued.id);
          return;
        }
        // Before slash commands and attachments are used up: no usable model, nothing consumed.
        if (!(await this.modelUsable(message.text))) return;
        // `/<server>.<prompt>` or a prompt file's `/<name>`: its text is what gets sent.
        const expanded = await this.expandSlashCommand(message.text);
        if (expanded === null) return;
        await this.send(expanded?.text ?? message.text, true, expanded && { mode: expanded.mode, tools: expanded.tools });
        return;
      }
      case 'stop':
        await this.stop();
        return;
      case 'attachImage': {
        const attachments = this.options.context?.attachments;
        if (!attachments) return;
        const before = attachments.list().filter((item) => item.image !== undefined).length;
        attachments.attach(imageAttachment(message, ++this.pastedImages, before));
        return;
      }
      case 'dropUris':
        await this.options.context?.attachDropped(message.uris);
        return;
      case 'draft':
        await this.context.workspaceState.update(PROMPT_DRAFT_KEY, message.text === '' ? undefined : message.text);
        return;
      case 'followUp':
        await this.onFollowUpAction(message.action, message.id);
        return;
      case 'newChat':
        await this.newChat();
        return;
      case 'setMode':
        await writeSetting('agent.mode', message.mode);
        return;
      case 'setResponseMode':
        await writeSetting('agent.responseMode', message.mode);
        return;
      case 'listModels':
        await this.postModels(message.role);
        return;
      case 'selectModel':
        await writeSetting(modelSettingKey(message.role), message.model);
        return;
      case 'openConversation':
        await this.openConversation(message.id);
        return;
      case 'deleteConversation':
        // The open conversation is left first: leaving it saves it, which would write back what is deleted.
        if (this.session.current.id === message.id) await this.newChat();
        await this.store.delete(message.id);
        this.postHistory();
        return;
      case 'undoDelete':
        await this.store.undoDelete();
        this.postHistory();
        return;
      case 'revertRun':
        await this.session.revert(message.runId);
        return;
      case 'retry':
        await this.retry(message.runId, message.text);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'insertCode':
        await insertCodeAtCursor(message.text, message.language);
        return;
      case 'command':
        await vscode.commands.executeCommand(message.command);
        return;
      case 'approval':
        // Exact id only: an answer for a request that is gone (already decided, run stopped) does nothing.
        if (!(ApprovalCenter.current()?.answer(message.id, message.answer, message.note) ?? false)) this.log.info(`approval ${message.id}: no pending request with this id`);
        return;
      case 'elicitation': {
        const problem = await this.elicitor.answer(message.id, message.action, message.content);
        if (problem !== undefined) {
          this.log.info(`elicitation ${message.id}: ${problem}`);
          void vscode.window.showWarningMessage(`Tandem: ${problem}`);
        }
        return;
      }
      case 'detachContext':
        this.options.context?.attachments.detach(message.path);
        return;
      case 'contextSearch': {
        const suggestions = (await this.options.context?.suggestions(message.query)) ?? [];
        this.post({ type: 'contextSuggestions', query: message.query, suggestions });
        return;
      }
      case 'attachContext':
        await this.options.context?.attachPick(message.kind, message.path);
        return;
      case 'mcpSignIn':
        await this.options.mcp?.signIn?.({ name: message.name, source: message.source });
        return;
      case 'openSettingToFix': {
        // The host names the setting; the panel only asks.
        const setting = this.readiness.current?.settingToFix;
        if (setting) await openSettingWhereSet(setting, (key) => workspaceValueApplies(key, this.preparation.read().ignored));
        return;
      }
      case 'checkModels':
        await this.readiness.check();
        // A state that changed came as `welcome`; this gives the button back either way.
        this.post({ type: 'modelsChecked' });
        return;
      case 'useLocalModel':
        await this.useLocalModel(message.baseUrl, message.model);
        return;
      case 'useVscodeModel':
        await this.useVscodeModel(message.id);
        return;
      case 'openFile':
        await openWorkspaceLink(message.path, message.line);
        return;
      case 'openDiff':
        if (!((await ApprovalCenter.current()?.openDiff(message.id)) ?? false)) void vscode.window.showInformationMessage('Tandem: that change is no longer waiting for approval.');
        return;
    }
  }

  // --- actions shared by the panel and the commands -------------------------

  /** Starts a run; `withAttachments`: the context chips go with it (a message typed in the panel). */
  /** `options`: how this message runs when its slash command says (a prompt file's mode and tools). */
  async send(text: string, withAttachments = false, options?: MessageOptions): Promise<void> {
    if (this.session.running) {
      // Ask About Selection and the like while a run goes: queued, as a message typed then would be.
      this.queueFollowUp(text, withAttachments);
      return;
    }
    if (!(await this.modelUsable(text))) return; // the chips stay for the next try
    // The chips are read now and used up by this message.
    const attached = withAttachments ? await this.options.context?.attachments.take(new AbortController().signal) : undefined;
    await this.session.send(text, attached, undefined, options);
  }

  /**
   * The messages the last window left queued in this conversation (a reload
   * ended the run they waited for): queued again, held for the user. Their
   * chips did not survive the window.
   */
  private takeUpFollowUpsLeft(): void {
    const texts = followUpsLeft(this.session.current.events);
    if (texts.length === 0 || this.followUps.items.length > 0) return;
    for (const text of texts) this.followUps.add(text);
    this.followUps.hold('The window reloaded before these were sent, so they wait for you.');
    this.log.info(`${texts.length} follow-ups queued before the window went are queued again, held`);
  }

  /** The window is going: what is queued is stored with the conversation (its last save), to be taken up next time. */
  private leaveFollowUps(): void {
    const texts = this.followUps.items.map((each) => each.text);
    // An empty list is stored too when an earlier window's are still pending, so they are not taken up again.
    if (texts.length === 0 && followUpsLeft(this.session.current.events).length === 0) return;
    this.session.append({ type: 'CUSTOM', name: HostEventName.followUpsLeft, value: { texts }, timestamp: Date.now() } as AgentEvent);
  }

  /** Enter while a run goes: the message waits its turn, with the chips that were above the prompt box. */
  private queueFollowUp(text: string, withAttachments = true): FollowUp | undefined {
    const items = (withAttachments ? this.options.context?.attachments.takeItems() : undefined) ?? [];
    const queued = this.followUps.add(text, items);
    if (!queued) {
      for (const item of items) this.options.context?.attachments.attach(item);
      this.post({ type: 'prompt', text, send: false, after: true });
      void vscode.window.showInformationMessage(`Tandem: ${this.followUps.items.length} messages are already queued. Your text is back in the prompt box.`);
      return undefined;
    }
    this.log.info(`queued a follow-up (${this.followUps.items.length} waiting)`);
    return queued;
  }

  /**
   * Messages sent into the running run (Steer), as the run takes them before
   * its next step: their chips read now, as a follow-up's are when it goes.
   */
  private readonly steering: Steering = {
    pending: () => this.followUps.hasSteering,
    take: async () => {
      const taken: SteerMessage[] = [];
      for (const followUp of this.followUps.takeSteering()) {
        const attached = await readAttachments(followUp.items, new AbortController().signal);
        taken.push({
          id: followUp.id,
          text: followUp.text,
          ...(attached && { attached: { labels: attached.labels, text: attached.text }, images: attached.images }),
        });
      }
      if (taken.length > 0) this.log.info(`the run took in ${taken.length === 1 ? 'a message' : `${taken.length} messages`} sent into it`);
      return taken;
    },
  };

  /** The run's tools are going: a follow-up can be sent into it. Off once it answers or ends. */
  private steerOpen = false;

  private setSteerOpen(open: boolean): void {
    if (open === this.steerOpen) return;
    this.steerOpen = open;
    // Too late for this run: what was steered stays queued, and goes after the answer as any follow-up.
    if (!open) this.followUps.endSteering();
    this.postFollowUps();
  }

  /** Follows the run's phases in its events: Steer is offered while its tools go. */
  private noteSteerWindow(event: AgentEvent): void {
    if (event.type === 'CUSTOM' && event['name'] === CustomEventName.phase) {
      this.setSteerOpen((event['value'] as { phase?: unknown } | undefined)?.phase === 'tools');
    } else if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') {
      this.setSteerOpen(false);
    }
  }

  private async onFollowUpAction(action: 'remove' | 'edit' | 'steer' | 'sendNext', id: string | undefined): Promise<void> {
    if (action === 'steer') {
      const queued = this.followUps.items.find((each) => each.id === id);
      // A slash command is expanded (its arguments asked) when it goes: it waits for the run to end.
      if (!queued || !this.steerOpen || queued.text.trimStart().startsWith('/')) return this.postFollowUps();
      if (this.followUps.steer(queued.id)) this.log.info('a queued follow-up goes into the running run at its next step');
      return;
    }
    if (action === 'sendNext') {
      if (this.session.running) {
        this.followUps.release(); // it goes when this run ends
        return;
      }
      const next = this.followUps.resume();
      if (next) await this.sendFollowUp(next);
      return;
    }
    const removed = id === undefined ? undefined : this.followUps.remove(id);
    // Edit: its text goes to the prompt box (the page put it there) and its chips back above it.
    if (removed && action === 'edit') for (const item of removed.items) this.options.context?.attachments.attach(item);
  }

  /** A queued follow-up, sent as if typed now: its chips are read now, a slash command expanded now. */
  private async sendFollowUp(followUp: FollowUp): Promise<void> {
    if (this.session.running) {
      // Something else started first (Ask About Selection, Retry): this one waits for that run.
      this.followUps.putBack(followUp);
      return;
    }
    this.log.info(`sending the next queued follow-up (${this.followUps.items.length} more waiting)`);
    const expanded = await this.expandSlashCommand(followUp.text);
    if (expanded === null) {
      // The prompt's arguments were not given: nothing is sent; the text waits in the prompt box after
      // what the user is writing there now, its chips above it again.
      for (const item of followUp.items) this.options.context?.attachments.attach(item);
      this.post({ type: 'prompt', text: followUp.text, send: false, after: true });
      return;
    }
    const attached = await readAttachments(followUp.items, new AbortController().signal);
    await this.session.send(expanded?.text ?? followUp.text, attached, undefined, expanded && { mode: expanded.mode, tools: expanded.tools });
  }

  private postFollowUps(): void {
    const items = this.followUps.items.map((each) => ({
      id: each.id,
      text: each.text,
      labels: each.items.map((item) => item.label),
      ...(this.followUps.isSteering(each.id) && { steering: true }),
    }));
    this.post({ type: 'followUps', items, held: this.followUps.held, canSteer: this.steerOpen });
  }

  /** Retry (`text`: Edit's changed question): once a model can answer it, else it waits in the prompt box, as a sent one would. */
  private async retry(runId: string, text: string | undefined): Promise<void> {
    if (this.session.running) {
      void vscode.window.showInformationMessage('Tandem is still working on the last question. Stop it first.');
      return;
    }
    const target = retryTarget(this.session.current.events);
    if (target?.runId === runId && !(await this.modelUsable(text ?? target.text))) return;
    await this.session.retry(runId, text);
  }

  /** Shows the panel and puts the keyboard focus in its prompt box (`tandem.focusPrompt`). */
  async focusPrompt(): Promise<void> {
    if (this.view) {
      this.view.show(false);
      this.post({ type: 'focusPrompt' });
      return;
    }
    this.focusWhenReady = true;
    await vscode.commands.executeCommand('tandem.chat.focus');
  }

  /**
   * No usable model (no key, nothing answers): the welcome view says what to
   * do, the text goes back into the prompt box, and no run starts that can
   * only fail. While the workspace's settings wait for consent, the run goes
   * ahead and asks.
   */
  private async modelUsable(text: string): Promise<boolean> {
    if (this.readiness.current === null || this.preparation.consentPending() || (await this.readiness.check())) return true;
    this.post({ type: 'prompt', text, send: false, held: true });
    await this.reveal();
    return false;
  }

  /** The welcome view's choice of a local server's model: the user's settings point the function-call model at it. */
  private async useLocalModel(baseUrl: string, model: string): Promise<void> {
    if (!this.readiness.foundLocalModel(baseUrl, model)) {
      this.log.warn(`welcome: ${baseUrl} / ${model} is not among the local models found; ignored`);
      return;
    }
    // The model first: the welcome view goes away with the last write, when all of it is in place.
    await this.readiness.settling(async () => {
      await writeUserSetting('functionCallModel.model', model);
      if (this.settings().functionCallModel.provider === 'vscode') await writeUserSetting('functionCallModel.provider', 'openai');
      await writeUserSetting('functionCallModel.baseUrl', baseUrl);
    });
    this.log.info(`welcome: the function-call model is now ${model} at ${baseUrl} (user settings)`);
  }

  /** The welcome view's choice of one of VS Code's language models. */
  private async useVscodeModel(id: string): Promise<void> {
    if (!(await listVscodeModels()).some((model) => model.id === id)) {
      this.log.warn(`welcome: VS Code offers no model ${id}; ignored`);
      return;
    }
    await writeUserSetting('functionCallModel.model', id);
    await writeUserSetting('functionCallModel.provider', 'vscode');
    this.log.info(`welcome: the function-call model is now VS Code's ${id} (user settings)`);
  }

  async stop(): Promise<void> {
    await this.session.stop();
  }

  /** Tandem: Condense Conversation. */
  async condense(): Promise<void> {
    await this.reveal();
    await this.session.condense();
  }

  async newChat(): Promise<void> {
    await this.session.open(undefined);
    this.postConversation();
    this.postHistory();
  }

  async openConversation(id: string): Promise<void> {
    const conversation = await this.store.load(id);
    if (!conversation) {
      // Its file is gone or damaged: the entry can go; a damaged file is set aside, kept for a person to look at.
      const remove = 'Remove from History';
      // Not awaited: the panel's other actions do not wait for the answer.
      void vscode.window.showWarningMessage('Tandem: that conversation could not be read: its file is missing or damaged.', remove).then(async (choice) => {
        if (choice !== remove) return;
        try {
          const outcome = await this.store.removeUnreadable(id);
          if (outcome.readable) {
            void vscode.window.showInformationMessage('Tandem: that conversation can be read now, so it stays in History.');
            return;
          }
          if (outcome.aside) this.log.info(`conversation ${id} removed from History; its damaged file is kept at ${outcome.aside}`);
        } catch (error) {
          void vscode.window.showWarningMessage(`Tandem: ${error instanceof Error ? error.message : String(error)}`);
        }
        this.postHistory();
      });
      return;
    }
    await this.session.open(conversation);
    this.postConversation();
    this.postHistory();
  }

  /** Opens the conversation the panel's page showed before, when the host chooses to (PanelReopen). */
  private async reopenShown(shown: string | undefined): Promise<void> {
    const reopened = await this.reopen.choose(shown, this.session);
    if (!reopened) return;
    if (reopened.problem) ChatViewProvider.tellOpenProblem(this.log, reopened.problem);
    this.log.info(`the panel showed ${shown} before: ${reopened.conversation ? 'opened again' : 'it cannot be opened now (deleted, never saved or unreadable), so a new conversation'}`);
    await this.session.open(reopened.conversation);
  }

  /** Shows the panel and sends a prompt (Ask About Selection). */
  async ask(text: string): Promise<void> {
    await this.reveal();
    await this.send(text);
  }

  async toggleMode(): Promise<void> {
    await writeSetting('agent.mode', this.settings().mode === 'agent' ? 'chat' : 'agent');
  }

  async toggleResponseMode(): Promise<void> {
    await writeSetting('agent.responseMode', this.settings().responseMode === 'integrated' ? 'streaming' : 'integrated');
  }

  async setApiKey(): Promise<void> {
    const settings = this.settings();
    await this.keys.prompt([settings.functionCallModel.baseUrl, settings.answerModel.baseUrl]);
  }

  /** Tandem: Use an OpenAI-Compatible Endpoint…: base URL, key, model. */
  async useEndpoint(): Promise<void> {
    await useEndpoint({ keys: this.keys, log: this.log, settings: () => this.settings(), settling: (write) => this.readiness.settling(write) });
  }

  /** Tandem: Choose Custom Agent…; the conversation says what changed (onSettingsChanged). */
  async chooseCustomAgent(): Promise<void> {
    await chooseCustomAgent();
  }

  /** Quick picks for both models: the endpoint's /models beside VS Code's language models (free text when neither has any). */
  async selectModels(): Promise<void> {
    for (const role of ['function-call', 'answer'] as const) {
      const [{ models, error }, vscodeModels] = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Tandem: listing the models…', cancellable: true },
        async (_progress, token) => {
          const cancellation = signalFromToken(token);
          try {
            return await Promise.all([this.fetchModels(role, cancellation.signal), listVscodeModels()]);
          } finally {
            cancellation.dispose();
          }
        },
      );
      const settings = this.settings();
      const model = role === 'function-call' ? settings.functionCallModel : settings.answerModel;
      const current: PickedModel = {
        model: role === 'function-call' ? model.model : settings.singleModel ? '' : model.model,
        provider: model.provider ?? 'openai',
      };
      const title = role === 'function-call' ? 'Function-call model (calls the tools)' : 'Answer model (empty: same as function-call)';
      const picked = await pickModel(title, { baseUrl: model.baseUrl, models, error }, vscodeModels, current, role === 'answer');
      if (picked === undefined) return;
      await writeSetting(modelSettingKey(role), picked.model);
      if (picked.model && picked.provider !== current.provider) await writeSetting(providerSettingKey(role), picked.provider);
    }
  }

  async exportTranscript(): Promise<void> {
    await exportTranscript(this.session.current, this.log);
  }

  // --- what the panel is told -----------------------------------------------

  /** Sends the open conversation; to a panel that restored part of it (`resume`), only the rest. */
  private postConversation(resume?: StreamPosition & { readonly conversationId: string }): void {
    this.flush();
    const conversation = this.session.current;
    const position = this.positionOf(conversation);
    const running = this.session.running;
    const rest = resume?.conversationId === conversation.id ? eventsAfter(conversation.events, position.stream, resume) : undefined;
    if (rest) {
      this.log.info(`panel reopened: sent ${rest.length} of ${conversation.events.length} events`);
      this.post({ type: 'conversation', id: conversation.id, events: rest, running, position, continues: true });
    } else {
      if (resume) this.log.info(`panel reopened: sent all ${conversation.events.length} events (it showed ${resume.conversationId === conversation.id ? 'an earlier stream of this conversation' : 'another conversation'})`);
      this.post({ type: 'conversation', id: conversation.id, events: conversation.events, running, position });
    }
  }

  private positionOf(conversation: StoredConversation): StreamPosition {
    let stream = this.streams.get(conversation);
    if (!stream) {
      stream = randomUUID();
      this.streams.set(conversation, stream);
    }
    return positionOf(conversation.events, stream);
  }

  private postSettings(): void {
    const settings = this.settings();
    const panel: PanelSettings = {
      mode: settings.mode,
      responseMode: settings.responseMode,
      functionCallModel: settings.functionCallModel.model,
      answerModel: settings.singleModel ? '' : settings.answerModel.model,
      ...(settings.customAgent && { customAgent: settings.customAgent }),
    };
    this.post({ type: 'settings', settings: panel });
  }

  private postHistory(): void {
    const deleted = this.store.deleted();
    this.post({ type: 'history', conversations: this.store.list(), ...(deleted ? { deleted } : {}) });
  }

  private postMcpStatus(): void {
    this.post({ type: 'mcpStatus', servers: this.options.mcp?.statuses() ?? [] });
    this.postSlashCommands();
  }

  /** The MCP prompts, then the prompt files, then Tandem's own, each only under a name not taken before it. */
  private slashCommands(): SlashCommand[] {
    const listed: SlashCommand[] = [];
    const taken = new Set<string>();
    for (const each of [...(this.options.mcp?.slashCommands?.() ?? []), ...(this.options.promptFiles?.commands() ?? []), ...builtinCommands()]) {
      if (taken.has(each.command)) continue;
      taken.add(each.command);
      listed.push(each);
    }
    return listed;
  }

  private postSlashCommands(): void {
    this.post({ type: 'slashCommands', commands: this.slashCommands() });
  }

  /** A slash command's text: an MCP prompt's, else a prompt file's, else Tandem's own; undefined when `text` is none; null when cancelled. */
  private async expandSlashCommand(text: string): Promise<SlashExpansion | undefined | null> {
    const prompt = await this.options.mcp?.expandSlashCommand?.(text);
    if (prompt === null) return null;
    if (prompt !== undefined) return { text: prompt };
    const file = await this.options.promptFiles?.expand(text);
    return file !== undefined ? file : expandBuiltinCommand(text);
  }

  private postAttachedContext(): void {
    const items = this.options.context?.attachments.list() ?? [];
    this.post({ type: 'attachedContext', chips: items.map((item) => ({ path: item.path, label: item.label, title: item.title, error: item.error })) });
  }

  private async fetchModels(role: ModelRole, signal?: AbortSignal): Promise<ModelList> {
    const settings = await withApiKeys(this.preparation.read(), this.keys);
    return fetchModelList(role === 'function-call' ? settings.functionCallModel : settings.answerModel, this.log, signal);
  }

  private async postModels(role: ModelRole): Promise<void> {
    const { models, error } = await this.fetchModels(role);
    this.post({ type: 'models', role, models, error });
  }

  /** Confirms a mode change in the conversation, however it was made (panel, command, settings.json). */
  private onSettingsChanged(): void {
    const settings = this.settings();
    if (settings.mode !== this.lastMode) {
      // One model: none set for answers, or the same model at the same endpoint.
      const oneModel =
        settings.singleModel ||
        (settings.answerModel.model === settings.functionCallModel.model && settings.answerModel.baseUrl === settings.functionCallModel.baseUrl);
      this.session.notice('modeChanged', modeNotice(settings.mode, oneModel));
    }
    if (settings.responseMode !== this.lastResponseMode) {
      this.session.notice(
        'responseModeChanged',
        settings.responseMode === 'streaming'
          ? 'Streaming responses: interim text and each tool result appear as they arrive.'
          : 'Integrated responses: one final answer that weaves in the tool results.',
      );
    }
    if ((settings.customAgent ?? '') !== this.lastCustomAgent) {
      this.session.notice(
        'customAgent',
        settings.customAgent
          ? `Custom agent: ${settings.customAgent}. Its instructions join every run, and the tools it names are the only ones runs may use (tandem.agent.customAgent).`
          : 'No custom agent: runs follow the rules files alone, with every tool.',
      );
    }
    this.lastMode = settings.mode;
    this.lastResponseMode = settings.responseMode;
    this.lastCustomAgent = settings.customAgent ?? '';
    this.postSettings();
    void this.readiness.check();
  }

  /** Resolves once the conversation's last save is written (after dispose: as it stood when the window went). */
  settled(): Promise<void> {
    return this.session.settled;
  }

  dispose(): void {
    this.leaveFollowUps();
    this.flush();
    this.queue.dispose();
    this.session.dispose();
    this.elicitor.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** An approval or an MCP server's question waiting for the user. */
function isPendingCard(event: AgentEvent): boolean {
  if (event.type !== 'CUSTOM' || (event['name'] !== CustomEventName.approval && event['name'] !== CustomEventName.elicitation)) return false;
  return (event['value'] as { status?: unknown } | undefined)?.status === 'pending';
}
