// Which ChatModel serves a phase: VS Code's language models for provider
// `vscode`, else the OpenAI-compatible client. Injected into the loop's hosts
// (panel, AG-UI endpoint) so the agent core never sees `vscode`.
import type { ChatModel, ModelSettings } from '../models/chatModel';
import { createChatModel } from '../models/openAiChatModel';
import { createVscodeChatModel } from './vscodeChatModel';

export function createModelFor(settings: ModelSettings): ChatModel {
  return settings.provider === 'vscode' ? createVscodeChatModel(settings) : createChatModel(settings);
}
