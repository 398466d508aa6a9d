// Which ChatModel serves a phase: VS Code's language models for provider
// `vscode`, else the OpenAI-compatible client. Injected into the loop's hosts
// (panel, AG-UI endpoint) so the agent core never sees `vscode`.
import type { ChatModel, ModelSettings } from '../models/chatModel';
import { createChatModel, firstByteTimeoutFor } from '../models/openAiChatModel';
import { createVscodeChatModel } from './vscodeChatModel';

/** `maxExecutionSeconds`: the run's time limit, which bounds the wait for a reply's first byte from below. */
export function createModelFor(settings: ModelSettings, maxExecutionSeconds: number): ChatModel {
  return settings.provider === 'vscode'
    ? createVscodeChatModel(settings)
    : createChatModel(settings, { firstByteTimeoutMs: firstByteTimeoutFor(maxExecutionSeconds) });
}
