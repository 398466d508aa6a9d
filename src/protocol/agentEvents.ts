// The event stream a run yields: AG-UI 1.0 events, plus CUSTOM events for
// what AG-UI has no word for. The webview renders exactly this stream; an
// AG-UI client over HTTP+SSE can consume it too.
//
// Conventions:
// - Events a model produced carry `metadata: { role, model }` where `role` is
//   the ModelRole below and `model` the model id.
// - STEP_STARTED/FINISHED names: `tools` (the function-call phase, one step per
//   iteration is named `tools:<n>`), `answer` (the answer phase).
// - TOOL_CALL_RESULT is always followed by a `tandem.toolStatus` CUSTOM event
//   with the structured outcome of the call.
import type { BaseEvent } from '@ag-ui/core';
import type { ToolResultSummary } from '../tools/tool';
import type { ElicitationSchema } from '../tools/elicitation';
import type { ContextWindow } from '../models/contextWindow';

export type AgentEvent = BaseEvent & { readonly [key: string]: unknown };

export type ModelRole = 'function-call' | 'answer';

/** Why the tool phase ended (or the run stopped). */
export type StopReason =
  | 'noToolCall' // the model replied without calling a tool
  | 'sufficient' // the results were judged sufficient
  | 'maxIterations'
  | 'timeLimit'
  | 'loopDetected'
  | 'mistakes' // too many replies without a tool call under `remind`
  | 'cancelled' // Stop
  | 'awaitingUser' // nonToolReply = user: the reply is shown, the run waits
  | 'finished' // the model called the `finish` tool: it has what it needs
  | 'budget' // tandem.agent.maxTokensPerRun / maxCostPerRun reached
  | 'chatMode'; // chat mode: no tool phase at all

export const CustomEventName = {
  /** Phase switch: `PhasePayload`. */
  phase: 'tandem.phase',
  /** Live usage totals: `RunUsage`. */
  usage: 'tandem.usage',
  /** A notice for the user: `NoticePayload`. */
  notice: 'tandem.notice',
  /** Outcome of a tool call: `ToolStatusPayload`. */
  toolStatus: 'tandem.toolStatus',
  /** A tool call began (its approval, then the tool): `ToolStartedPayload`. Calls listed before it are queued. */
  toolStarted: 'tandem.toolStarted',
  /** Progress of a running tool call: `ToolProgressPayload`. */
  toolProgress: 'tandem.toolProgress',
  /** A retry of a model call: `RetryPayload`. */
  retry: 'tandem.retry',
  /** What kind of message a TEXT_MESSAGE_START opens: `MessageKindPayload`. */
  messageKind: 'tandem.messageKind',
  /** An approval asked (`status: 'pending'`) and its decision, same `id`: `ApprovalPayload`. */
  approval: 'tandem.approval',
  /** A tool's question to the user (MCP elicitation, `status: 'pending'`) and its answer, same `id`: `ElicitationPayload`. */
  elicitation: 'tandem.elicitation',
  /** How full the model's context window was on the last request: `ContextPayload`. */
  context: 'tandem.context',
  /** Older turns were condensed into a summary to fit the window: `CondensedPayload`. */
  condensed: 'tandem.condensed',
  /** What a reply streamed as text was its reasoning: `ReclassifiedPayload`. */
  reclassified: 'tandem.reclassified',
  /** The images of a tool result, to show beside it: `ToolImagesPayload`. Live only (see `isLiveOnly`). */
  toolImages: 'tandem.toolImages',
  /** The images pasted with the question of a run, to show under it: `UserImagesPayload`. Live only. */
  userImages: 'tandem.userImages',
  /** A message the user sent into the run while its tools went, taken in before the next step: `SteeredPayload` (steering.ts). */
  steered: 'tandem.steered',
} as const;

/**
 * Older turns condensed by the answer model into a summary. The rules and the
 * current task stay verbatim, and so do the most recent tool exchanges. The
 * first `historyMessages` messages of the conversation as it stood (the run's
 * input, or the whole history for Tandem: Condense Conversation) are replaced
 * by the summary in every later request.
 */
export interface CondensedPayload {
  /** Whose request was condensed (`answer` also for the on-demand command). */
  readonly role: ModelRole;
  /** The model that wrote the summary (the answer model). */
  readonly model: string;
  readonly summary: string;
  /** Messages the summary replaced (earlier turns and older tool exchanges). */
  readonly messages: number;
  /** Of those, the conversation's own earlier messages (what later turns' history drops). */
  readonly historyMessages: number;
  /** The request's tokens before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** True when the counts are estimates (not OpenAI's own encoding for this model). */
  readonly estimated: boolean;
  /** `nearWindow`: the request neared the window; `overflow`: the server said it did not fit; `manual`: Tandem: Condense Conversation. */
  readonly reason: 'nearWindow' | 'overflow' | 'manual';
  /** `manual` only (a run counts its own condensing): what the summary cost, for the conversation's totals. */
  readonly usage?: RunUsage | undefined;
}

/** The last request's size against the model's window (the panel's context meter). */
export interface ContextPayload {
  readonly role: ModelRole;
  readonly model: string;
  /** Prompt tokens of the last request (the server's count; estimated when it sent none). */
  readonly tokens: number;
  readonly window: number;
  readonly estimated: boolean;
  /** Where the window came from: the user's setting, the endpoint's /models, what the server runs the model with (Ollama), the built-in table, or the 32k fallback. */
  readonly windowSource: ContextWindow['source'];
  /** The count is the next request's, just after condensing, not one a server has seen. */
  readonly afterCondensing?: boolean;
}

/** An MCP server's question: the card shows the message and the schema's fields (or the URL). */
export interface ElicitationPayload {
  readonly id: string;
  readonly toolCallId?: string | undefined;
  readonly serverName: string;
  readonly message: string;
  readonly mode: 'form' | 'url';
  readonly requestedSchema?: ElicitationSchema | undefined;
  readonly url?: string | undefined;
  readonly status: 'pending' | 'accept' | 'decline' | 'cancel';
}

export interface PhasePayload {
  readonly phase: 'tools' | 'answer';
  readonly role: ModelRole;
  readonly model: string;
  /** Set on the switch to the answer phase: why the tool phase ended. */
  readonly stopReason?: StopReason | undefined;
  /** The same, in words for the user. */
  readonly reason?: string | undefined;
  /** Both model names, so the panel can show the switch. */
  readonly functionCallModel: string;
  readonly answerModel: string;
}

export type NoticeCode =
  | StopReason
  | 'loopWarning'
  | 'reminder'
  | 'mcpStarting'
  | 'mcpFailed'
  | 'toolsCapped'
  | 'callsCapped'
  | 'modeChanged'
  | 'responseModeChanged'
  | 'settings'
  | 'malformedToolCall'
  | 'truncated'
  | 'usageEstimated'
  | 'settingsIgnored'
  | 'restrictedMode'
  | 'workspaceTrusted'
  | 'rules'
  | 'answerTruncated'
  | 'contentFiltered'
  | 'emptyAnswer'
  | 'condense'
  | 'contextFilled'
  | 'modeForMessage' // a slash command's mode, not the toggle's, for one message
  | 'toolsNamed' // a custom agent's or slash command's `tools:` narrowed the run's tools
  | 'customAgent' // the custom agent was chosen (or none)
  | 'customAgentMissing'; // tandem.agent.customAgent names no agent file

/** Commands the panel may ask the host to run (buttons, notice actions). */
export const PANEL_COMMANDS = [
  'tandem.exportTranscript',
  'tandem.showLog',
  'tandem.setApiKey',
  'tandem.useEndpoint',
  'tandem.showMcpServers',
  'workbench.trust.manage',
  'tandem.continueAnswer',
  'tandem.chooseCustomAgent',
] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/** A button on a notice that runs one of the commands the panel may run. */
export interface NoticeAction {
  readonly label: string;
  readonly command: PanelCommand;
}

export interface NoticePayload {
  readonly code: NoticeCode;
  readonly level: 'info' | 'warning' | 'error';
  readonly message: string;
  readonly action?: NoticeAction | undefined;
}

/** `stopped`: cut off by Stop or the run's time limit, with what it did so far reported (a command's output). */
export type ToolCallStatus = 'done' | 'failed' | 'cached' | 'rejected' | 'stopped';

export interface ToolStartedPayload {
  readonly toolCallId: string;
}

export interface ToolStatusPayload {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: ToolCallStatus;
  readonly durationMs: number;
  readonly summary?: ToolResultSummary | undefined;
  /** `mcp:<server>`, `workspace` or `frontend` (an AG-UI client's tool). */
  readonly source: string;
}

/** An image a tool returned (an MCP screenshot): one of the types models take, base64. */
export interface ToolImage {
  readonly mimeType: string;
  readonly data: string;
}

/** The images of one tool result, after its TOOL_CALL_RESULT. */
export interface ToolImagesPayload {
  readonly toolCallId: string;
  readonly images: readonly ToolImage[];
}

/** The images pasted with the question that starts `runId`, after its user message. */
export interface UserImagesPayload {
  readonly runId: string;
  readonly images: readonly ToolImage[];
}

/** `tandem.steered`: a message the user sent into the run, taken in before its next step, as it was sent (not the models' wording). */
export interface SteeredPayload {
  readonly runId: string;
  /** The queued message's id. */
  readonly id: string;
  readonly text: string;
  readonly attached?: { readonly labels: readonly string[]; readonly text: string } | undefined;
}

/**
 * Events sent to whoever watches the run as it happens and never stored: not
 * in the conversation file, the panel's saved state or the host's copy a
 * reopened view is caught up from. An image is megabytes of base64 that a
 * person looks at once; the result's text (the question's) keeps its description.
 */
export function isLiveOnly(event: AgentEvent): boolean {
  return event.type === 'CUSTOM' && (event['name'] === CustomEventName.toolImages || event['name'] === CustomEventName.userImages);
}

/** The user's answer to an approval: "Always allow" approves and remembers. */
export type ApprovalAnswer = 'approved' | 'rejected' | 'alwaysAllowed';

/** The longest note a person can send with a rejection. */
export const MAX_REJECTION_NOTE_CHARS = 2000;

/** An answer with what the person told the model when rejecting ("use pnpm, not npm"). */
export interface ApprovalReply {
  readonly answer: ApprovalAnswer;
  /** Only with `rejected`: the person's words, passed to the model with the tool's result. */
  readonly note?: string | undefined;
}

/** An answer as an Approver gives it: bare, or with a note. */
export type ApprovalDecision = ApprovalAnswer | ApprovalReply;

/** The reply of a decision; a note is kept only on a rejection, trimmed, and only when it says something. */
export function replyOf(decision: ApprovalDecision): ApprovalReply {
  if (typeof decision === 'string') return { answer: decision };
  const note = decision.answer === 'rejected' ? decision.note?.trim().slice(0, MAX_REJECTION_NOTE_CHARS) : undefined;
  return note ? { answer: 'rejected', note } : { answer: decision.answer };
}

/**
 * An approval the run waits for, then its decision (a second event with the
 * same `id`). An AG-UI endpoint maps the pair to an interrupt and its resume.
 */
export interface ApprovalPayload {
  /** Matches the decision to its request; the panel answers by this id only. */
  readonly id: string;
  readonly toolCallId: string | undefined;
  readonly tool: string;
  /** `edit`: a file change the host can show as a diff; `toolCall`: any other call. */
  readonly kind: 'edit' | 'toolCall';
  /** The call's arguments; for an edit `{ path }` (the change itself is in the diff). */
  readonly args: unknown;
  /** One line saying what would happen. */
  readonly summary: string;
  /** A sensitive path: "Always allow" is not offered. */
  readonly sensitive: boolean;
  readonly status: 'pending' | 'approved' | 'rejected';
  /** What "Always allow" would add to `tandem.tools.alwaysAllow`, and its label; absent when not offered. */
  readonly alwaysAllowKey?: string | undefined;
  readonly alwaysAllowLabel?: string | undefined;
  /** On a decision: the user chose "Always allow". */
  readonly alwaysAllowed?: boolean | undefined;
  /** On a rejection: why, when nobody clicked (`cancelled`: the run stopped). */
  readonly reason?: 'cancelled' | undefined;
  /** On a rejection: what the person told the model. */
  readonly note?: string | undefined;
}

export interface ToolProgressPayload {
  readonly toolCallId: string;
  readonly message?: string | undefined;
  readonly progress?: number | undefined;
  readonly total?: number | undefined;
}

export interface RetryPayload {
  readonly role: ModelRole;
  readonly model: string;
  readonly attempt: number;
  readonly delayMs: number;
  readonly reason: string;
  /** Messages the failed attempt had streamed: void, and replaced by the next attempt's (the panel hides them). */
  readonly discarded?: readonly string[] | undefined;
}

/**
 * A reply closed a `<think>` its prompt had opened, so the text it streamed
 * before was reasoning. The `discarded` messages are replaced by a reasoning
 * message that follows with all of it (the panel hides them, as after a retry).
 */
export interface ReclassifiedPayload {
  readonly role: ModelRole;
  readonly model: string;
  readonly discarded: readonly string[];
}

export interface MessageKindPayload {
  readonly messageId: string;
  /** `answer`: the final answer. `interim`: streaming-mode text before a tool call. `toolResult`: streaming-mode tool result message. */
  readonly kind: 'answer' | 'interim' | 'toolResult';
  readonly role: ModelRole;
  readonly model: string;
}

/** Per-model usage, as shown in the usage panel. Undefined counts were not reported. */
export interface ModelUsage {
  readonly role: ModelRole;
  readonly model: string;
  readonly calls: number;
  readonly promptTokens: number | undefined;
  readonly completionTokens: number | undefined;
  /** Of promptTokens, read from the server's cache (priced at the cached rate where one is set). */
  readonly cachedTokens: number | undefined;
  /** Of completionTokens, the model's reasoning; absent when the server did not say. */
  readonly reasoningTokens?: number | undefined;
  /** True when any count is a local estimate. */
  readonly estimated: boolean;
  /**
   * How many calls and attempts had their prompt / completion count estimated
   * locally: says which count is an estimate, and lets a later snapshot be
   * told apart from an earlier one. Absent when none were (and in usage saved
   * before it was kept, where `estimated` covers both counts).
   */
  readonly estimatedCalls?: { readonly prompt: number; readonly completion: number } | undefined;
  /** Failed or aborted attempts whose tokens are included (absent: none). */
  readonly partialAttempts?: number | undefined;
  /** USD; undefined when no price is known for the model, or it was not called. */
  readonly costUsd: number | undefined;
  /** True when the price comes from built-in defaults rather than the user's table. */
  readonly costIsDefaultPrice: boolean;
  /** The model's server runs on this machine (a loopback base URL): no price is no surprise. Absent: not known to. */
  readonly servedLocally?: boolean | undefined;
}

export interface RunUsage {
  readonly functionCall: ModelUsage;
  readonly answer: ModelUsage;
  /** Milliseconds spent in the tool phase and in the answer phase, waits on the user left out. */
  readonly toolPhaseMs: number;
  readonly answerPhaseMs: number;
  /** Milliseconds the run waited on the user (approvals, questions); absent when it did not. */
  readonly waitingMs?: number | undefined;
  readonly totalCostUsd: number | undefined;
}
