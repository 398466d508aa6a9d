// The messages between the extension host and the panel. What comes FROM the
// webview is untrusted and parsed with zod before the host acts on it; what
// goes TO the webview is typed only (the host produces it).
import { z } from 'zod';
import { MAX_REJECTION_NOTE_CHARS, PANEL_COMMANDS, type AgentEvent, type ModelRole } from './agentEvents';
import type { McpServerStatus } from '../mcp/mcpServerStatus';
import type { StreamPosition } from './streamPosition';
import { MAX_IMAGE_BYTES } from './imageRules';

const role = z.enum(['function-call', 'answer']);

/** What the `@` picker offers. */
export const CONTEXT_KINDS = ['file', 'folder', 'selection', 'problems', 'openEditors', 'gitChanges', 'terminal', 'url'] as const;
const id = z.string().min(1).max(200);

/** Every message the webview may send, one schema per `type`. */
export const fromWebviewSchema = z.discriminatedUnion('type', [
  /**
   * The panel loaded; `resume`: what it restored from its saved state (it is sent only what came after).
   * Its conversation is the one this page showed: after a window reload the host opens that one again.
   */
  z.object({
    type: z.literal('ready'),
    resume: z
      .object({
        conversationId: id,
        stream: z.string().min(1).max(100),
        count: z.number().int().min(0),
        tail: z.number().int().min(0),
      })
      .optional(),
  }),
  /** `steer` (Ctrl+Enter while a run goes): queued and sent into that run at once, read before its next step. */
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(200_000), steer: z.boolean().optional() }),
  z.object({ type: z.literal('stop') }),
  /** The prompt box's text after typing paused ('' once sent or cleared): the host keeps it for the page after a window reload. */
  z.object({ type: z.literal('draft'), text: z.string().max(200_000) }),
  /**
   * A follow-up queued while a run goes: removed, taken back into the prompt box (edit), sent into the
   * running run before its next step (steer), or the first one sent now (sendNext: its `id` not needed).
   */
  z.object({ type: z.literal('followUp'), action: z.enum(['remove', 'edit', 'steer', 'sendNext']), id: id.optional() }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('setMode'), mode: z.enum(['agent', 'chat']) }),
  z.object({ type: z.literal('setResponseMode'), mode: z.enum(['integrated', 'streaming']) }),
  z.object({ type: z.literal('listModels'), role }),
  z.object({ type: z.literal('selectModel'), role, model: z.string().trim().max(300) }),
  z.object({ type: z.literal('openConversation'), id }),
  z.object({ type: z.literal('deleteConversation'), id }),
  /** Brings back the conversation deleted last (the history's Undo). */
  z.object({ type: z.literal('undoDelete') }),
  z.object({ type: z.literal('revertRun'), runId: id }),
  /** Retry: asks the last question again, naming its run (anything else is refused); Edit sends the changed `text`. */
  z.object({ type: z.literal('retry'), runId: id, text: z.string().trim().min(1).max(200_000).optional() }),
  z.object({ type: z.literal('copy'), text: z.string().max(2_000_000) }),
  /** A code block's Insert: the text goes in at the editor's cursor. */
  z.object({ type: z.literal('insertCode'), text: z.string().max(2_000_000), language: z.string().max(100).optional() }),
  /** An approval card's answer, naming its request exactly. */
  z.object({
    type: z.literal('approval'),
    id,
    answer: z.enum(['approved', 'rejected', 'alwaysAllowed']),
    /** With a rejection: what the user tells the model. */
    note: z.string().max(MAX_REJECTION_NOTE_CHARS).optional(),
  }),
  /** An elicitation card's answer, naming its question exactly; the host checks `content` against the server's schema. */
  z.object({
    type: z.literal('elicitation'),
    id,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z
      .record(
        z.string().max(200),
        z.union([z.string().max(100_000), z.number().finite(), z.boolean(), z.array(z.string().max(10_000)).max(500)]),
      )
      .optional(),
  }),
  /**
   * An image pasted into the prompt box, for the next message: base64 `data` (empty when the page did not
   * read it, being over `MAX_IMAGE_BYTES`), `bytes` its size. The host checks what it is.
   */
  z.object({
    type: z.literal('attachImage'),
    /** The page's name for it: its chip's `data-path` is `image:<id>`. */
    id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/u),
    name: z.string().max(500).optional(),
    mimeType: z.string().max(200),
    data: z.string().max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4),
    bytes: z.number().int().min(0),
  }),
  /** Files or folders dropped on the prompt box (their URIs, as the drag carried them); the host checks each. */
  z.object({ type: z.literal('dropUris'), uris: z.array(z.string().min(1).max(4096)).min(1).max(100) }),
  /** A context chip's remove button, naming the chip's `data-path`. */
  z.object({ type: z.literal('detachContext'), path: z.string().min(1).max(4096) }),
  /** The prompt box's `@` picker: what matches the text typed after '@'. */
  z.object({ type: z.literal('contextSearch'), query: z.string().max(500) }),
  /** A pick in the `@` picker; the host checks the path against the tools' scope and ignore rules. */
  z.object({ type: z.literal('attachContext'), kind: z.enum(CONTEXT_KINDS), path: z.string().min(1).max(4096) }),
  /** "Sign in" next to an MCP server that needs it. */
  z.object({ type: z.literal('mcpSignIn'), name: z.string().min(1).max(200), source: z.string().min(1).max(4096) }),
  /** A link in the Markdown to a workspace file (`lib/app.js#L12`); the host checks the path against the tools' scope. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(4096), line: z.number().int().min(1).max(10_000_000).optional() }),
  /** An approval card's "Open diff". */
  z.object({ type: z.literal('openDiff'), id }),
  z.object({
    type: z.literal('command'),
    command: z.enum(PANEL_COMMANDS),
  }),
  /** The welcome view's "Check again": is a model usable now? */
  z.object({ type: z.literal('checkModels') }),
  /** The welcome view's "Open Settings": the setting the host named in `settingToFix`. */
  z.object({ type: z.literal('openSettingToFix') }),
  /** The welcome view: use this model of a local server it found (the host checks it found exactly that). */
  z.object({ type: z.literal('useLocalModel'), baseUrl: z.string().min(1).max(2048), model: z.string().trim().min(1).max(300) }),
  /** The welcome view: use this VS Code language model (by id). */
  z.object({ type: z.literal('useVscodeModel'), id: z.string().min(1).max(300) }),
]);

export type FromWebview = z.infer<typeof fromWebviewSchema>;

/** Parses one message from the webview; undefined when it is not one we know. */
export function parseFromWebview(value: unknown): FromWebview | undefined {
  const result = fromWebviewSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** One entry of the history list. */
export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

/** An MCP prompt offered in the prompt box as `/<command>`. */
export interface SlashCommand {
  readonly command: string;
  readonly description?: string | undefined;
  readonly arguments: readonly string[];
}

/** One line of the `@` picker. */
export interface ContextSuggestion {
  readonly kind: (typeof CONTEXT_KINDS)[number];
  /** A workspace-relative path for files and folders; the item's name otherwise. */
  readonly path: string;
  readonly label: string;
  readonly detail?: string | undefined;
}

/** A context chip above the prompt box. */
export interface ContextChip {
  /** `data-path`: a workspace-relative path, an MCP resource's URI, or `selection:<file>:<lines>`, `problems`, `open-editors`. */
  readonly path: string;
  readonly label: string;
  readonly title: string;
  /** Why the item cannot be attached; the chip shows it and nothing is sent but this reason. */
  readonly error?: string | undefined;
}

/** A follow-up as the panel shows it above the prompt box. */
export interface QueuedFollowUp {
  readonly id: string;
  readonly text: string;
  /** Its context chips' labels. */
  readonly labels: readonly string[];
  /** Sent into the running run (Steer), waiting for its next step. */
  readonly steering?: boolean | undefined;
}

/** What the panel shows in its header controls. */
export interface PanelSettings {
  readonly mode: 'agent' | 'chat';
  readonly responseMode: 'integrated' | 'streaming';
  readonly functionCallModel: string;
  /** Empty: single-model mode. */
  readonly answerModel: string;
  /** The custom agent runs work as (`tandem.agent.customAgent`); absent: none. */
  readonly customAgent?: string | undefined;
}

/** Why no model is usable yet and the ways out, for the welcome view. */
export interface WelcomeState {
  /** What is wrong, one sentence each (e.g. "No API key for https://api.openai.com/v1."). */
  readonly problems: readonly string[];
  /** Local servers that answered, with their models. */
  readonly localServers: readonly { readonly name: string; readonly baseUrl: string; readonly models: readonly string[] }[];
  /** Where local servers were looked for ("Ollama at http://127.0.0.1:11434/v1"), for the "none found" line. */
  readonly localServersTried: readonly string[];
  /** VS Code's language models. */
  readonly vscodeModels: readonly { readonly id: string; readonly name: string; readonly vendor: string }[];
  /**
   * The base URL the user gave does not work (nothing answers, a web page, not
   * a URL): the setting to fix, which the view's Open Settings opens. Absent
   * when what is missing is a model or a key.
   */
  readonly settingToFix?: string;
}

export type ToWebview =
  /**
   * Replaces everything the panel shows with this conversation; with
   * `continues`, the events come after what the panel restored (its `ready` said where).
   */
  | {
      readonly type: 'conversation';
      readonly id: string;
      readonly events: readonly AgentEvent[];
      readonly running: boolean;
      /** Where the stream is after these events. */
      readonly position: StreamPosition;
      readonly continues?: boolean;
    }
  /** Events of the running conversation, in order, coalesced per frame; `position`: where the stream is after them. */
  | { readonly type: 'events'; readonly conversationId: string; readonly events: readonly AgentEvent[]; readonly position?: StreamPosition | undefined }
  | { readonly type: 'settings'; readonly settings: PanelSettings }
  | {
      readonly type: 'history';
      readonly conversations: readonly ConversationSummary[];
      /** The conversation deleted last, while Undo can still bring it back. */
      readonly deleted?: ConversationSummary;
    }
  | {
      readonly type: 'models';
      readonly role: ModelRole;
      readonly models: readonly string[];
      /** Set when the list could not be fetched: the picker stays free text. */
      readonly error?: string | undefined;
    }
  | { readonly type: 'mcpStatus'; readonly servers: readonly McpServerStatus[] }
  /** What is attached to the next message, shown as context chips. */
  | { readonly type: 'attachedContext'; readonly chips: readonly ContextChip[] }
  /** The `@` picker's suggestions for `query`. */
  | { readonly type: 'contextSuggestions'; readonly query: string; readonly suggestions: readonly ContextSuggestion[] }
  /** The follow-ups queued while a run goes, in the order they will be sent; `held`: why they wait for the user. */
  /** `canSteer`: the run's tools are going, so a follow-up can be sent into it (Steer). */
  | { readonly type: 'followUps'; readonly items: readonly QueuedFollowUp[]; readonly held?: string | undefined; readonly canSteer?: boolean | undefined }
  /** Moves the keyboard focus into the prompt box (`tandem.focusPrompt`). */
  | { readonly type: 'focusPrompt' }
  /** What the prompt box held before the window reloaded: the page puts it in an empty box, never over what it holds. */
  | { readonly type: 'draft'; readonly text: string }
  /** The MCP prompts the prompt box offers after '/'. */
  | { readonly type: 'slashCommands'; readonly commands: readonly SlashCommand[] }
  /** Check again found what the welcome view already shows (a change comes as `welcome`). */
  | { readonly type: 'modelsChecked' }
  /** The welcome view while no model is usable; null hides it. */
  | { readonly type: 'welcome'; readonly welcome: WelcomeState | null }
  /**
   * Puts text into the prompt box (Ask About Selection) and sends it when `send` is true;
   * `held`: the user's message was not sent because no model is usable (the welcome view says so);
   * `after`: a message handed back unsent goes after what the box holds, never over it.
   */
  | { readonly type: 'prompt'; readonly text: string; readonly send: boolean; readonly held?: true; readonly after?: true };
