// The Tool interface: workspace tools and MCP tools both implement it, and the
// agent loop knows nothing else about them.
import type { ElicitationHandler } from './elicitation';
import type { SamplingHandler } from './sampling';
import type { ChatImage } from '../models/chatModel';

export interface ToolProgress {
  readonly message?: string | undefined;
  readonly progress?: number | undefined;
  readonly total?: number | undefined;
}

/** What "Always allow" adds to the user's `tandem.tools.alwaysAllow`, and the button's words. */
export interface AlwaysAllowOffer {
  /** A tool name, or `run_command:<prefix>`. */
  readonly key: string;
  /** E.g. "Always allow write_file" or "Always allow commands starting with git status". */
  readonly label: string;
}

/** What every approval request may add to say how it is shown and remembered. */
interface ApprovalRequestCommon {
  readonly toolName: string;
  /** The call this approval is about; the executor fills it in when the tool leaves it out. */
  readonly toolCallId?: string | undefined;
  /** One line for the user, written by the tool (e.g. the exact command and its folder). */
  readonly summary?: string | undefined;
  /** A sensitive path (`.vscode/**`, `.env*`, ...): always asks, never offers "Always allow". */
  readonly sensitive?: boolean | undefined;
  /**
   * What "Always allow" would remember; `null` = not offered. Default: the
   * tool's name (and never for a sensitive path or a delete).
   */
  readonly alwaysAllow?: AlwaysAllowOffer | null | undefined;
  /**
   * Whether the user's `tandem.tools.alwaysAllow` entries already allow this
   * call. Default: the entries hold the tool's name. A tool with its own keys
   * (run_command prefixes) decides here.
   */
  readonly allowedBy?: ((entries: readonly string[]) => boolean) | undefined;
  /** Asks even under `autoApprove: all` (run_command): only the user's alwaysAllow entries let it run unasked. */
  readonly alwaysAsks?: boolean | undefined;
}

/** What the user is asked before a tool call that changes something runs. */
export type ApprovalRequest =
  | (ApprovalRequestCommon & {
      readonly kind: 'toolCall';
      readonly arguments: unknown;
      /** Read-only calls pass without asking unless the policy is `none`. */
      readonly readOnly: boolean;
    })
  | (ApprovalRequestCommon & {
      readonly kind: 'edit';
      /** Absolute path of the file. */
      readonly path: string;
      /** Current text; undefined when the file does not exist yet. */
      readonly before: string | undefined;
      /** Proposed text; undefined when the file is to be deleted. */
      readonly after: string | undefined;
    });

export interface ApprovalGate {
  /** Resolves true to go ahead. Applies the approval policy (`autoApprove`, `alwaysAllow`, sensitive paths). */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
  /** What the person told the model when they rejected this call's request, if anything. */
  rejectionNote?(toolCallId: string): string | undefined;
}

export interface ToolContext {
  /** The run this call belongs to (edits are journaled per run so they can be reverted). */
  readonly runId: string;
  /** The id of this call, as the model gave it. */
  readonly callId: string;
  readonly signal: AbortSignal;
  /** Agent time left before the run's time limit aborts `signal` (absent: unknown); a tool that can wrap up early uses it. */
  readonly timeLeftMs?: (() => number) | undefined;
  readonly approval: ApprovalGate;
  onProgress?(progress: ToolProgress): void;
  /** Asks the user for input on the tool's behalf (MCP elicitation); absent: nobody can answer. */
  readonly elicit?: ElicitationHandler | undefined;
  /** Lends the run's model to the tool (MCP sampling), once the user approves; absent: not lent. */
  readonly sample?: SamplingHandler | undefined;
}

/** A structured view of a result, for the panel ("N results", the top 3). */
export type ToolResultSummary =
  | {
      readonly kind: 'search';
      readonly total: number;
      readonly top: readonly { readonly title: string; readonly snippet?: string | undefined }[];
    }
  | { readonly kind: 'text'; readonly preview: string }
  /** update_todo_list: the whole list as the model sent it. */
  | { readonly kind: 'todos'; readonly items: readonly TodoItem[] }
  /** run_subagent: the calls the subagent made, in the order it made them. */
  | { readonly kind: 'subagent'; readonly steps: readonly SubagentStep[] };

/** One call a subagent made: the tool, what it was about ("src/app.ts"), how it ended. */
export interface SubagentStep {
  readonly tool: string;
  readonly subject?: string | undefined;
  /** Absent: it had not ended when the subagent did. */
  readonly status?: 'done' | 'failed' | 'cached' | 'rejected' | 'stopped' | undefined;
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One step of the model's plan (update_todo_list). */
export interface TodoItem {
  readonly title: string;
  readonly status: TodoStatus;
}

export interface ToolResult {
  /** What the model reads. */
  readonly text: string;
  readonly isError?: boolean | undefined;
  /** The user (or the approval policy) refused what the call asked to do; nothing happened. */
  readonly rejected?: boolean | undefined;
  /** Cut off by Stop or the run's time limit; the text reports what it did until then. */
  readonly stopped?: boolean | undefined;
  readonly summary?: ToolResultSummary | undefined;
  /** Absolute paths of the workspace files this call read or changed (rules files near them may join the run). */
  readonly touchedPaths?: readonly string[] | undefined;
  /** Images the tool returned (an MCP screenshot); `text` describes them too, for a model that takes none. */
  readonly images?: readonly ChatImage[] | undefined;
}

/** `frontend`: a tool of an AG-UI client (RunAgentInput.tools), run by the client. */
export type ToolSource = { readonly kind: 'workspace' } | { readonly kind: 'mcp'; readonly server: string } | { readonly kind: 'frontend' };

export interface Tool {
  /** Matches ^[a-zA-Z0-9_-]{1,64}$ (OpenAI's rule). */
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  /** Read-only tools run without approval under the default policy and may be cached. */
  readonly readOnly: boolean;
  /** Sends a request off this machine (fetch_url): never offered in Restricted Mode, read-only or not. */
  readonly network?: boolean | undefined;
  /**
   * True when the tool asks for approval itself (an edit shows its diff);
   * otherwise the loop asks through the gate before running a non-read-only tool.
   */
  readonly approvesItself?: boolean | undefined;
  /**
   * Sending the same arguments again is no sign of a loop and must not come
   * from the cache (update_todo_list: an unchanged plan re-sent beside the
   * next step's calls). The loop guard passes over it.
   */
  readonly repeatable?: boolean | undefined;
  /** MCP tools: the user marked the server `cacheable`, so identical read-only calls in a run may reuse a result. */
  readonly cacheable?: boolean | undefined;
  /**
   * How a call is asked about when the loop asks: the card's line (default
   * "Run <name>"), and the `tandem.tools.alwaysAllow` entry that covers it
   * (default the name; a workspace's MCP server gets one tied to its
   * definition, so its tools never ride on an entry given to another server
   * of the same name).
   */
  readonly approval?: { readonly summary?: string | undefined; readonly alwaysAllowKey?: string | undefined } | undefined;
  readonly source: ToolSource;
  /**
   * Runs the tool. Validates `args` itself; a fault should come back as a
   * result with `isError`, though a throw is also caught by the loop.
   */
  run(args: unknown, context: ToolContext): Promise<ToolResult>;
}

/** Anything that can list tools for a run (the workspace tools, the MCP hub). */
export interface ToolProvider {
  tools(): readonly Tool[];
}
