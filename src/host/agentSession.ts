// One conversation at a time: its stored events, its session cache, and the
// run in progress. Runs the loop and forwards every event to the panel and the
// store. Loaded on first use (it pulls in the loop, the model client and zod).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentSettings } from '../agent/agentSettings';
import type { Approver } from '../agent/runApprovalGate';
import type { Elicitor } from '../agent/runElicitation';
import { carriedSteering, type SteerMessage, type Steering } from '../agent/steering';
import { runAgent } from '../agent/runAgent';
import { SessionCache } from '../agent/sessionCache';
import type { ChatImage, ChatMessage, ChatModel } from '../models/chatModel';
import { toolPathOf } from './workspaceFolderNames';
import { createModelFor } from './modelFactory';
import type { AgentEvent, NoticeAction } from '../protocol/agentEvents';
import type { ApprovalRequest, Tool } from '../tools/tool';
import type { RevertOutcome } from '../tools/editJournal';
import type { JournalRunSnapshot } from '../tools/editJournalSnapshot';
import { historyMessages } from '../protocol/conversationHistory';
import { CustomEventName, isLiveOnly, type RunUsage } from '../protocol/agentEvents';
import { condenseConversation } from '../agent/conversationCondenser';
import { CancelledError, isCancellation } from '../common/errors';
import { unlessAborted } from '../common/unlessAborted';
import { HostEventName } from '../protocol/hostEventNames';
import { appendCompacted } from '../protocol/eventCompaction';
import { maxConversations, titleFrom, type ConversationStore, type StoredConversation } from './conversationStore';
import type { AttachedContext } from './contextAttachments';
import type { OutputLog } from './outputLog';
import type { RunEnding } from './followUpQueue';
import { workspaceRulesNow } from './workspaceRulesReader';
import { revertSummary } from '../tools/revertSummary';
import { withCustomAgent } from '../tools/customAgents';
import { customAgentForRun, narrowRunTools } from '../agent/customAgentRun';
import { workspaceCustomAgent } from './workspaceCustomAgents';
import { usageLogLine } from '../protocol/usageFormat';
import { editsInPlace, opensConversation, retryTarget, steeredInto } from '../protocol/retryTarget';

/** How one message runs when its slash command says so (a prompt file's front matter, `/init`). */
export interface MessageOptions {
  /** The mode it runs in instead of the setting's. */
  readonly mode?: AgentSettings['mode'] | undefined;
  /** The names of the only tools it may use (promptFileTools.ts); undefined: every tool offered. */
  readonly tools?: readonly string[] | undefined;
}

/** Where a run's tools and approvals come from (workspace tools, MCP), injected so the panel works without them. */
export interface ToolSources {
  tools(): readonly Tool[];
  /** How a run asks the user (the run applies `autoApprove` / `alwaysAllow` first). */
  approverFor(runId: string): Approver;
  /** Files the run changed and can revert; empty when none. */
  editedFiles?(runId: string): readonly string[];
  /** The run's edit journal in its stored form, kept with the conversation. */
  runEditsSnapshot?(runId: string): JournalRunSnapshot | undefined;
  /** Reverts the run's edits (from `stored` after a reload), asking about files changed since; undefined when it has no record. */
  revertRun?(runId: string, stored?: JournalRunSnapshot): Promise<RevertOutcome | undefined>;
}

/** Asks with a modal dialog; what the workspace tools replace with their diff view. */
export async function askWithModal(request: ApprovalRequest): Promise<boolean> {
  const detail =
    request.kind === 'edit'
      ? `${request.after === undefined ? 'Delete' : request.before === undefined ? 'Create' : 'Change'} ${request.path}`
      : JSON.stringify(request.arguments, null, 2).slice(0, 2000);
  const choice = await vscode.window.showWarningMessage(
    `Tandem wants to run ${request.toolName}.`,
    { modal: true, detail },
    // Reject first: it is the button Enter presses.
    'Reject',
    'Allow',
  );
  return choice === 'Allow';
}

export const noToolSources: ToolSources = {
  tools: () => [],
  approverFor: () => ({ ask: async (prompt) => ((await askWithModal(prompt.request)) ? 'approved' : 'rejected') }),
};

export interface SessionDependencies {
  readonly store: ConversationStore;
  readonly log: OutputLog;
  readonly toolSources: () => ToolSources;
  /** Settings with API keys filled in. */
  /** `mode`: the mode the run takes instead of the setting's (MCP servers start for Agent mode); the settings come back as configured. */
  readonly settings: (mode?: AgentSettings['mode']) => Promise<AgentSettings>;
  /** The same for a call without tools (condensing): no MCP servers start. Defaults to `settings`. */
  readonly modelSettings?: (() => Promise<AgentSettings>) | undefined;
  /** Events for the panel, in order. */
  readonly emit: (conversationId: string, event: AgentEvent) => void;
  readonly onDidChangeRunning: (running: boolean) => void;
  /** A run ended (after `onDidChangeRunning(false)`): how, for the follow-ups queued meanwhile. */
  readonly onRunEnded?: ((ending: RunEnding) => void) | undefined;
  /** The history list changed (a new conversation's first save put it there). */
  readonly onDidChangeHistory?: (() => void) | undefined;
  /** Saving the conversation failed (`error`), or works again after failing (undefined). */
  readonly onSaveProblem?: ((error: unknown) => void) | undefined;
  /** How an MCP server's question reaches the user (the panel's card); absent: questions are declined. */
  readonly elicitor?: Elicitor | undefined;
  /** Messages the user sends into a run while its tools go (Steer on a queued follow-up); absent: none. */
  readonly steering?: Steering | undefined;
  /** Replaces the models (tests); defaults to the provider's model (modelFactory.ts). */
  readonly createModel?: (settings: AgentSettings['functionCallModel'], maxExecutionSeconds: number) => ChatModel;
}

export class AgentSession implements vscode.Disposable {
  private conversation: StoredConversation;
  private cache = new SessionCache();
  private run: { controller: AbortController; done: Promise<void> } | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  /** Runs whose revert is under way. */
  private readonly reverting = new Set<string>();
  /** Saves run one after another (each writes the same file). */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: SessionDependencies,
    initial?: StoredConversation,
  ) {
    this.conversation = initial ?? deps.store.create();
  }

  get current(): StoredConversation {
    return this.conversation;
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /** Adds a host event (prompt, notice, edits) to the conversation and the panel. */
  append(event: AgentEvent): void {
    if (this.closed) return; // the window is going: what the run says now is neither shown nor stored
    if (!isLiveOnly(event)) appendCompacted(this.conversation.events, event, this.deps.store.persistedCount(this.conversation.id));
    this.deps.emit(this.conversation.id, event);
  }

  notice(code: string, message: string, level: 'info' | 'warning' = 'info', action?: NoticeAction): void {
    const value = action ? { code, level, message, action } : { code, level, message };
    this.append({ type: 'CUSTOM', name: 'tandem.notice', value, timestamp: Date.now() } as AgentEvent);
    this.scheduleSave();
  }

  /** Starts a run for `text` (and what was attached to it); resolves when the run has ended. Ignored while a run is going. */
  /** `carried`: messages a first try took while it went (Steer), which Retry sends into this run at its first step. */
  /** `options`: how this message runs when its slash command says (a prompt file's mode and tools); stored with the question, for Retry. */
  async send(text: string, attached?: AttachedContext, carried?: readonly SteerMessage[], options?: MessageOptions): Promise<void> {
    if (this.run) return;
    const controller = new AbortController();
    let finish!: () => void;
    this.run = { controller, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.deps.onDidChangeRunning(true);
    const conversation = this.conversation;
    const runId = randomUUID();
    let ending: RunEnding = 'failed';
    try {
      if (!conversation.title) conversation.title = titleFrom(text);
      // The attached items travel apart from the typed text: the panel shows their names, the models read them.
      const value = { text, runId, ...(attached && { attached: { labels: attached.labels, text: attached.text } }), ...(options?.mode && { mode: options.mode }), ...(options?.tools && { tools: options.tools }) };
      this.append({ type: 'CUSTOM', name: HostEventName.userMessage, value, timestamp: Date.now() } as AgentEvent);
      // The pictures, for the panel to show under the question while it is open (never stored: isLiveOnly).
      if (attached?.images?.length) {
        const images = attached.images.map(({ mimeType, data }) => ({ mimeType, data }));
        this.append({ type: 'CUSTOM', name: CustomEventName.userImages, value: { runId, images }, timestamp: Date.now() } as AgentEvent);
      }
      const listed = this.deps.store.list().some((entry) => entry.id === conversation.id);
      await this.save();
      // A new conversation is in the history from its first save: listed (and deletable, which stops it) while it runs.
      if (!listed) this.deps.onDidChangeHistory?.();
      // Pictures go to the models with this run only; Retry of it (this window) sends them again.
      this.lastImages = attached?.images?.length ? { runId, images: attached.images } : undefined;
      ending = await this.execute(conversation, runId, controller.signal, attached?.images, carried, options);
    } finally {
      this.run = undefined;
      finish();
      this.deps.onDidChangeRunning(false);
      this.deps.onRunEnded?.(ending);
      await this.save();
      // The final save moved the conversation to the top of the history.
      this.deps.onDidChangeHistory?.();
    }
  }

  /** Custom agents named in the settings that were not found, said once each. */
  private readonly missingAgents = new Set<string>();

  private async execute(conversation: StoredConversation, runId: string, signal: AbortSignal, images?: readonly ChatImage[], carried?: readonly SteerMessage[], options?: MessageOptions): Promise<RunEnding> {
    const { log } = this.deps;
    const started = Date.now();
    let sources: ToolSources | undefined;
    let usage: RunUsage | undefined;
    let ending: RunEnding = 'failed';
    // Preparing is part of the run (settings consent, MCP servers starting): a failure there also ends it with RUN_ERROR.
    try {
      const configured = await unlessAborted(this.deps.settings(options?.mode), signal);
      const mode = options?.mode;
      let settings = configured && mode && mode !== configured.mode ? { ...configured, mode } : configured;
      if (settings !== configured && settings && configured) {
        const name = (each: AgentSettings['mode']) => (each === 'chat' ? 'Chat mode (no tools)' : 'Agent mode');
        this.notice('modeForMessage', `This message runs in ${name(settings.mode)}, as its slash command asks; the panel stays in ${name(configured.mode)}.`);
      }
      if (settings === undefined) {
        // Stopped while being prepared (consent asked, MCP servers starting): the run ends now, the preparation on its own.
        log.info(`run ${runId}: stopped before it started`);
        this.notice('cancelled', signal.reason instanceof CancelledError ? signal.reason.message : 'Stopped.');
        this.append({ type: 'RUN_FINISHED', threadId: conversation.id, runId, result: { stopReason: 'cancelled', answer: '' }, outcome: { type: 'cancelled' }, timestamp: Date.now() } as AgentEvent);
        return 'stopped';
      }
      const createModel = this.deps.createModel ?? createModelFor;
      const functionCallModel = createModel(settings.functionCallModel, settings.maxExecutionSeconds);
      const answerModel = settings.singleModel ? functionCallModel : createModel(settings.answerModel, settings.maxExecutionSeconds);
      sources = this.deps.toolSources();
      // The custom agent's tools, then the slash command's: each can only take tools away.
      const custom = await customAgentForRun(settings, settings.mode === 'agent' ? sources.tools() : [], workspaceCustomAgent, (code, message, level) => this.notice(code, message, level), this.missingAgents);
      settings = custom.settings;
      let tools = custom.tools;
      if (options?.tools) ({ tools, settings } = narrowRunTools(settings, tools, options.tools, 'its slash command', (code, message, level) => this.notice(code, message, level)));
      const rules = withCustomAgent(custom.agent, await workspaceRulesNow(settings.rulesFiles));
      // The loop itself logs thoughts, tool inputs and outputs when given a sink.
      const trace = settings.verbose ? (line: string) => log.trace(line) : undefined;
      log.info(
        `run ${runId}: ${settings.mode} mode, ${settings.responseMode}, ${functionCallModel.name} → ${answerModel.name}, ${tools.length} tools`,
      );
      const events = runAgent(
        { threadId: conversation.id, runId, messages: withQuestionImages(historyMessages(conversation.events), images), mode: settings.mode, steering: carried?.length ? carriedSteering(carried, this.deps.steering) : this.deps.steering, ...rules },
        {
          functionCallModel,
          answerModel,
          tools,
          approval: sources.approverFor(runId),
          elicitor: this.deps.elicitor,
          settings,
          cache: this.cache,
          log: trace,
        },
        signal,
      );
      for await (const event of events) {
        if (event.type === 'CUSTOM' && event['name'] === CustomEventName.usage) usage = event['value'] as RunUsage;
        if (event.type === 'RUN_FINISHED') ending = (event['result'] as { stopReason?: unknown } | undefined)?.stopReason === 'cancelled' ? 'stopped' : 'answered';
        if (event.type === 'RUN_ERROR') ending = 'failed';
        if (conversation !== this.conversation) continue; // the user moved on; the run still ends cleanly
        if (trace && event.type === 'RUN_FINISHED') trace(`answer: ${String((event['result'] as { answer?: unknown } | undefined)?.answer ?? '')}`);
        if (event.type === 'RUN_ERROR') log.error(`run ${runId} failed: ${String(event['message'])}`);
        this.append(event);
        this.scheduleSave();
      }
    } catch (error) {
      // runAgent ends every stream itself; this guards the preparation above and a bug.
      const message = error instanceof Error ? error.message : String(error);
      log.error(`run ${runId} threw: ${message}`);
      this.append({
        type: 'RUN_ERROR',
        message,
        code: 'INTERNAL_ERROR',
        metadata: { suggestion: 'Retry; details are in the Tandem log (Tandem: Show Log).' },
        timestamp: Date.now(),
      } as AgentEvent);
    }
    // What it spent, on record outside the panel too.
    log.info(`run ${runId} ended after ${Date.now() - started} ms${usage ? `; ${usageLogLine(usage)}` : ''}`);
    const edited = sources?.editedFiles?.(runId) ?? [];
    if (edited.length > 0 && conversation === this.conversation) {
      await this.storeRunEdits(conversation.id, runId, sources?.runEditsSnapshot?.(runId));
      // Workspace-relative, as the revert bar and the next run's record name them.
      this.append({ type: 'CUSTOM', name: HostEventName.runEdits, value: { runId, files: edited.map(shownPath) }, timestamp: Date.now() } as AgentEvent);
    }
    return ending;
  }

  /**
   * Retry: asks the last question again (or `text`, the question as Edit
   * changed it), with what was attached to it then. The run it replaces
   * stays in the panel, marked, and leaves the models' history
   * (conversationHistory.ts). Files it changed are the user's call: reverted
   * first, or kept (and the next try is told).
   */
  async retry(runId: string, text?: string): Promise<void> {
    if (this.run || this.retrying) return;
    const target = retryTarget(this.conversation.events);
    if (target?.runId !== runId) {
      this.notice('retry', 'Only the last question can be asked again, once its run has ended and unless the conversation was condensed since.', 'warning');
      return;
    }
    this.retrying = true;
    try {
      const edited = editsInPlace(this.conversation.events, runId);
      if (edited.length > 0) {
        const choice = await vscode.window.showWarningMessage(
          `The first try changed ${edited.length === 1 ? '1 file' : `${edited.length} files`}. Revert ${edited.length === 1 ? 'it' : 'them'} before asking again?`,
          { modal: true, detail: edited.join('\n') },
          'Revert and Retry',
          'Keep and Retry',
        );
        if (choice === undefined) return;
        if (choice === 'Revert and Retry') await this.revert(runId);
      }
      // The user may have moved on (another conversation, a run of their own) while the dialog was open.
      if (this.run || retryTarget(this.conversation.events)?.runId !== runId) return;
      // An edited opening question renames the conversation, as the question it replaces had named it.
      if (text !== undefined && opensConversation(this.conversation.events, runId)) this.conversation.title = titleFrom(text);
      this.append({ type: 'CUSTOM', name: HostEventName.retried, value: { runId }, timestamp: Date.now() } as AgentEvent);
      const images = this.lastImages?.runId === runId ? this.lastImages.images : undefined;
      // What the user sent into the first try goes into this one too; an edited question stands on its own.
      const carried = text === undefined ? steeredInto(this.conversation.events, runId).map((message, index) => ({ id: `retried-${runId}-${index}`, ...message })) : [];
      await this.send(text ?? target.text, target.attached && images ? { ...target.attached, images } : target.attached, carried, { mode: target.mode, tools: target.tools });
    } finally {
      this.retrying = false;
    }
  }

  /** A retry is deciding (its dialog is open). */
  private retrying = false;
  /** The pictures pasted with the last question, held in memory only, for its Retry. */
  private lastImages: { readonly runId: string; readonly images: readonly ChatImage[] } | undefined;

  /** Keeps the run's journal with the conversation, so its revert survives a reload. */
  private async storeRunEdits(conversationId: string, runId: string, snapshot: JournalRunSnapshot | undefined): Promise<void> {
    if (snapshot === undefined) return;
    try {
      await this.deps.store.runEdits.save(conversationId, runId, snapshot);
    } catch (error) {
      this.deps.log.error(`could not store the edits of run ${runId} (revert works until the window reloads): ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async revert(runId: string): Promise<void> {
    const revertRun = this.deps.toolSources().revertRun;
    // A second click while the first revert still asks would revert from the stored record again.
    if (!revertRun || this.reverting.has(runId)) return;
    // A run going may be editing the same files (the panel offers no revert then; this is the host's own check).
    if (this.running) {
      this.notice('revertWhileRunning', 'A run is going: revert its edits or earlier ones once it has ended.', 'warning');
      return;
    }
    this.reverting.add(runId);
    try {
      await this.revertWith(revertRun, runId);
    } finally {
      this.reverting.delete(runId);
    }
  }

  private async revertWith(revertRun: NonNullable<ToolSources['revertRun']>, runId: string): Promise<void> {
    const conversationId = this.conversation.id;
    const stored = await this.deps.store.runEdits.load(conversationId, runId);
    const outcome = await revertRun(runId, stored);
    if (outcome === undefined) {
      // The panel stops offering it: nothing is left to revert.
      this.append({ type: 'CUSTOM', name: HostEventName.runReverted, value: { runId, files: [], skipped: [], remaining: [] }, timestamp: Date.now() } as AgentEvent);
      this.notice('revertUnavailable', 'The edits of that run are no longer recorded, so they cannot be reverted.', 'warning');
      return;
    }
    // Files whose restore failed stay recorded (and stored), so Revert can try them again.
    const remaining = this.deps.toolSources().runEditsSnapshot?.(runId);
    if (remaining) await this.storeRunEdits(conversationId, runId, remaining);
    else await this.deps.store.runEdits.remove(conversationId, runId).catch(() => undefined);
    const { restored, skipped, failed } = outcome;
    const left = remaining?.files.map((file) => file.path) ?? [];
    this.append({
      type: 'CUSTOM',
      name: HostEventName.runReverted,
      value: { runId, files: restored.map(shownPath), skipped: skipped.map(shownPath), remaining: left.map(shownPath) },
      timestamp: Date.now(),
    } as AgentEvent);
    this.notice('reverted', revertSummary(outcome, shownPath) + (left.length > 0 ? ' Revert again to retry.' : ''), skipped.length + failed.length > 0 ? 'warning' : 'info');
  }

  /**
   * Tandem: Condense Conversation: the earlier turns become a summary by the
   * answer model (the latest turn stays); later runs send the summary. Holds
   * the run slot meanwhile, so Stop cancels it and nothing is sent during it.
   */
  async condense(): Promise<void> {
    if (this.run) {
      void vscode.window.showInformationMessage('Tandem is still working on the last question. Condense after it has finished, or stop it first.');
      return;
    }
    const history = historyMessages(this.conversation.events);
    if (history.filter((message) => message.role === 'user').length < 2) {
      this.notice('condense', 'There is nothing to condense yet: the conversation has only one turn.');
      return;
    }
    const controller = new AbortController();
    let finish!: () => void;
    this.run = { controller, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.deps.onDidChangeRunning(true);
    const conversation = this.conversation;
    try {
      const settings = await (this.deps.modelSettings ?? this.deps.settings)();
      const model = (this.deps.createModel ?? createModelFor)(settings.answerModel, settings.maxExecutionSeconds);
      const condensed = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Tandem: condensing the conversation with ${model.name}…`, cancellable: true },
        (_progress, token) => {
          const onCancel = token.onCancellationRequested(() => controller.abort());
          return condenseConversation(history, settings.answerModel, model, controller.signal, settings.pricing).finally(() => onCancel.dispose());
        },
      );
      if (conversation !== this.conversation) return;
      if (!condensed) {
        this.notice('condense', 'There is nothing to condense yet: the conversation has only one turn.');
        return;
      }
      this.deps.log.info(`condensed ${condensed.messages} messages: ${condensed.tokensBefore} → ${condensed.tokensAfter} tokens`);
      this.append({ type: 'CUSTOM', name: CustomEventName.condensed, value: condensed, timestamp: Date.now() } as AgentEvent);
    } catch (error) {
      if (isCancellation(error) || controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.error(`condensing failed: ${message}`);
      this.notice('condense', `Could not condense the conversation: ${message}`, 'warning');
    } finally {
      this.run = undefined;
      finish();
      this.deps.onDidChangeRunning(false);
      await this.save();
    }
  }

  /** Stops the run; resolves when it has ended. `why` is the notice the run ends with (default "Stopped."). */
  async stop(why?: string): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.controller.abort(why === undefined ? undefined : new CancelledError(why));
    await run.done;
  }

  /** Switches to another conversation (or a new one), stopping any run first. */
  async open(conversation: StoredConversation | undefined): Promise<void> {
    await this.stop(conversation === undefined ? 'Stopped: you started a new chat.' : 'Stopped: you opened another conversation.');
    await this.save();
    this.conversation = conversation ?? this.deps.store.create();
    this.cache = new SessionCache();
    await this.rememberOpen(conversation?.id);
  }

  /** Which conversation the next window start opens: worth a log line, not a message, when it cannot be written. */
  private async rememberOpen(id: string | undefined): Promise<void> {
    try {
      await this.deps.store.setCurrent(id);
    } catch (error) {
      this.deps.log.warn(`could not note the open conversation: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, 1500);
  }

  async save(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    const conversation = this.conversation;
    if (conversation.events.length === 0 || this.closed) return;
    this.saving = this.saving.then(async () => {
      try {
        // While a run streams, the last event may still grow: it is stored once it is complete.
        const { dropped } = await this.deps.store.save(conversation, { final: !this.running });
        if (conversation === this.conversation) await this.rememberOpen(conversation.id);
        if (this.saveFailing) {
          this.saveFailing = false;
          this.deps.onSaveProblem?.(undefined);
        }
        if (dropped.length > 0) {
          const titles = dropped.map((entry) => `"${entry.title || 'Untitled'}"`).join(', ');
          this.deps.log.info(`history holds ${maxConversations} conversations: deleted the oldest, ${titles}`);
          this.notice('historyFull', `History keeps the ${maxConversations} most recent conversations, so the oldest was deleted: ${titles}.`);
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.deps.log.error(`could not save the conversation: ${message}`);
        // Said once until a save works again: a run saves every few seconds.
        if (!this.saveFailing) {
          this.saveFailing = true;
          this.deps.onSaveProblem?.(error);
        }
      }
    });
    await this.saving;
  }

  /** The last save failed; the user has been told. */
  private saveFailing = false;

  /** Resolves once the saves asked for so far are written (deactivate waits for the last one). */
  get settled(): Promise<void> {
    return this.saving;
  }

  private closed = false;

  /**
   * The window is reloading or closing (VS Code disposes the extension's
   * subscriptions right after calling deactivate, which waits for `settled`):
   * what has arrived is stored, then the run stops. Nothing after is stored,
   * so the run's own "stopped" ending does not land on disk: opened again,
   * it says the window went away (`INTERRUPTED`), which is what happened.
   */
  dispose(): void {
    void this.save();
    this.closed = true;
    this.run?.controller.abort();
  }
}

/** A file as the user knows it: relative to its workspace folder (named too in a multi-root workspace). */
function shownPath(file: string): string {
  return toolPathOf(vscode.Uri.file(file));
}

/** The question (the last user message) with the pictures pasted with it, which the stored conversation does not hold. */
function withQuestionImages(messages: ChatMessage[], images: readonly ChatImage[] | undefined): ChatMessage[] {
  if (!images?.length) return messages;
  const last = messages.length - 1;
  const question = messages[last];
  if (question?.role !== 'user') return messages;
  return [...messages.slice(0, last), { ...question, images: [...(question.images ?? []), ...images] }];
}
