// Provider `vscode`: the sampling settings as VS Code's language model API
// carries them. `LanguageModelChatRequestOptions.modelOptions` is a free-form
// record each provider reads as it documents; GitHub Copilot Chat and the
// providers built on VS Code's provider sample read `temperature` and
// `max_tokens`, so those are the keys. OpenAI's reasoning models accept only
// their default temperature (modelQuirks.ts), so none is sent for them.
import type { ModelSettings } from './chatModel';
import { isReasoningModel } from './modelQuirks';

/** `modelOptions` for a request to the VS Code model named `modelNames` (its id, family); undefined when nothing is set. */
export function languageModelOptions(settings: Pick<ModelSettings, 'temperature' | 'maxTokens'>, ...modelNames: readonly string[]): Record<string, number> | undefined {
  const reasoning = modelNames.some((name) => name && isReasoningModel(name));
  const options: Record<string, number> = {
    ...(settings.temperature !== undefined && !reasoning ? { temperature: settings.temperature } : {}),
    ...(settings.maxTokens !== undefined && settings.maxTokens > 0 ? { max_tokens: settings.maxTokens } : {}),
  };
  return Object.keys(options).length > 0 ? options : undefined;
}
