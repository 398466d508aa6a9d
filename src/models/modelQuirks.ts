// Request parameters that differ by model family. OpenAI's reasoning models
// (o1, o3, o4-mini, gpt-5...) reject `max_tokens` in favour of
// `max_completion_tokens`, and accept only the default temperature.

/** The model id without a provider prefix (`openai/o3` -> `o3`). */
function bareName(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1).toLowerCase();
}

export function isReasoningModel(model: string): boolean {
  return /^(o\d+(-|$)|gpt-5)/.test(bareName(model));
}

export function samplingParameters(model: string, temperature: number | undefined, maxTokens: number | undefined): Record<string, number> {
  if (isReasoningModel(model)) {
    return maxTokens === undefined ? {} : { max_completion_tokens: maxTokens };
  }
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
  };
}
