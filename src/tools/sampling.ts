// MCP sampling as the tools see it: a server, during one of its tool calls,
// asks to use the user's model. The run answers (after the user approves);
// the MCP layer only translates the protocol.
import type { ChatImage } from '../models/chatModel';

export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** Images a user message carries (sent to a model that takes them). */
  readonly images?: readonly ChatImage[] | undefined;
}

export interface SamplingRequest {
  readonly serverName: string;
  /**
   * How an "Always allow" entry names this server: its name, or for a
   * workspace's server `name@<stamp>` of its exact definition, so another
   * server taking the name does not inherit the user's yes.
   */
  readonly allowAs?: string | undefined;
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt?: string | undefined;
  /** The most the server wants back, in tokens. */
  readonly maxTokens: number;
}

export interface SamplingResult {
  readonly text: string;
  readonly model: string;
  /** `maxTokens`: cut at the server's limit. */
  readonly stopReason: 'endTurn' | 'maxTokens';
}

/** The person (or the policy) said no: the server is told so, with MCP's code for it. */
export class SamplingRefused extends Error {}

/** Answers one sampling request; throws SamplingRefused when declined, CancelledError when the run stops. */
export type SamplingHandler = (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingResult>;
