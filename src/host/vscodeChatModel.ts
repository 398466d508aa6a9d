// Provider `vscode`: a ChatModel over VS Code's language models
// (`vscode.lm`), e.g. those Copilot or another extension registers. Tools go
// in the request options; tool calls come back as LanguageModelToolCallPart
// and results go back as LanguageModelToolResultPart. The API reports no
// usage, so the counts come from `model.countTokens` and are marked estimated.
// Temperature and max tokens go in `modelOptions` (languageModelOptions.ts); a
// model saying the input is too long becomes a ContextOverflowError, which the
// loop answers by condensing the conversation and asking once more.
import * as vscode from 'vscode';
import { CancelledError, ContextOverflowError, ModelApiError } from '../common/errors';
import { callTokenLimit, type ChatModel, type ModelDelta, type ModelSettings, type ModelTurn, type TokenUsage, type ToolCall, type TurnRequest } from '../models/chatModel';
import { isContextOverflow } from '../models/contextOverflow';
import { languageModelMessageText, toLanguageModelMessages, type LanguageModelMessage } from '../models/languageModelMessages';
import { languageModelOptions } from '../models/languageModelOptions';
import { ThinkTagSplitter, type SplitText } from '../models/thinkTags';
import { uniqueToolCallId } from '../models/toolCallIds';
import { estimateUsage } from '../models/usageEstimate';

/** What the pickers and the welcome view show of one VS Code model. */
export interface VscodeModelInfo {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
}

/** Every language model VS Code offers right now (none in a plain code-server). */
export async function listVscodeModels(): Promise<VscodeModelInfo[]> {
  try {
    const models = await vscode.lm.selectChatModels();
    return models.map(({ id, name, vendor, family, maxInputTokens }) => ({ id, name, vendor, family, maxInputTokens }));
  } catch {
    // An older host without `vscode.lm`, or a provider that failed: no models.
    return [];
  }
}

/** The model named by the setting: by id, else by family; an empty name takes the first model offered. */
export async function selectVscodeModel(name: string): Promise<vscode.LanguageModelChat | undefined> {
  const wanted = name.trim();
  if (!wanted) return (await vscode.lm.selectChatModels())[0];
  return (await vscode.lm.selectChatModels({ id: wanted }))[0] ?? (await vscode.lm.selectChatModels({ family: wanted }))[0];
}

function toVscodeMessages(messages: readonly LanguageModelMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) => {
    const parts = message.parts.map((part) => {
      switch (part.kind) {
        case 'text':
          return new vscode.LanguageModelTextPart(part.text);
        case 'toolCall':
          return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
        case 'toolResult':
          return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
      }
    });
    return message.role === 'user'
      ? vscode.LanguageModelChatMessage.User(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[])
      : vscode.LanguageModelChatMessage.Assistant(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
  });
}

function noModelError(settings: ModelSettings): ModelApiError {
  return new ModelApiError(
    settings.model ? `VS Code offers no language model with the id or family "${settings.model}".` : 'VS Code offers no language models.',
    {
      retryable: false,
      attempts: 1,
      suggestion: 'Install an extension that provides language models (e.g. GitHub Copilot Chat), or pick another model with "Tandem: Select Models".',
    },
  );
}

async function countTokens(model: vscode.LanguageModelChat, texts: readonly string[], token: vscode.CancellationToken): Promise<number | undefined> {
  try {
    let total = 0;
    for (const text of texts) if (text) total += await model.countTokens(text, token);
    return total;
  } catch {
    return undefined;
  }
}

export function createVscodeChatModel(settings: ModelSettings): ChatModel {
  return {
    name: settings.model || 'vscode',
    streamTurn: (request, signal) => streamTurn(settings, request, signal),
  };
}

async function* streamTurn(settings: ModelSettings, request: TurnRequest, signal: AbortSignal): AsyncGenerator<ModelDelta, ModelTurn, void> {
  const startedAt = Date.now();
  if (signal.aborted) throw new CancelledError();
  const cancellation = new vscode.CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const model = await selectVscodeModel(settings.model);
    if (!model) throw noModelError(settings);
    const plan = toLanguageModelMessages(request.messages);
    const tools = (request.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
    const modelOptions = languageModelOptions({ temperature: settings.temperature, maxTokens: callTokenLimit(settings.maxTokens, request) }, model.id, model.family);
    const options: vscode.LanguageModelChatRequestOptions = {
      justification: 'Tandem runs your request with this model.',
      ...(modelOptions ? { modelOptions } : {}),
      ...(tools.length > 0 ? { tools, toolMode: vscode.LanguageModelChatToolMode.Auto } : {}),
    };
    let content = '';
    let reasoning = '';
    const toolCalls: ToolCall[] = [];
    let nameless = 0;
    // A model another extension serves may write its reasoning into the text between <think> tags.
    const thinkTags = new ThinkTagSplitter();
    function* split(part: SplitText): Generator<ModelDelta> {
      if (part.retractsText) {
        // The text so far was reasoning (the prompt opened the tag).
        content = '';
        reasoning += part.reasoning;
        yield { type: 'textWasReasoning', reasoning };
      } else if (part.reasoning) {
        reasoning += part.reasoning;
        yield { type: 'reasoning', delta: part.reasoning };
      }
      content += part.text;
      if (part.text) yield { type: 'text', delta: part.text };
    }
    // Stopped once the provider took the request: it read (and may bill) the prompt, and some of the reply may have come.
    const stopped = (): ModelDelta => ({
      type: 'partialUsage',
      usage: estimateUsage(
        { messages: plan.map(languageModelMessageText), ...(tools.length > 0 ? { tools } : {}) },
        [reasoning, content, ...toolCalls.map((call) => `${call.name}(${call.arguments})`)].join(''),
      ),
    });
    /** The provider took the request (sendRequest resolved): a Stop before it, during the model's consent prompt, sent nothing. */
    let taken = false;
    try {
      const response = await model.sendRequest(toVscodeMessages(plan), options, cancellation.token);
      taken = true;
      for await (const part of response.stream) {
        if (signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) {
          yield* split(thinkTags.push(part.value));
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          // Another extension's model: a call with no tool name goes back to it as a mistake, and each call gets an id of its own.
          if (!part.name) {
            nameless++;
            continue;
          }
          const id = uniqueToolCallId(part.callId, toolCalls.length, (taken) => toolCalls.some((other) => other.id === taken));
          const call: ToolCall = { id, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
          const index = toolCalls.push(call) - 1;
          yield { type: 'toolCallStart', index, id: call.id, name: call.name };
          yield { type: 'toolCallArgs', index, delta: call.arguments };
        }
      }
    } catch (error) {
      if (signal.aborted) {
        if (taken) yield stopped();
        throw new CancelledError();
      }
      throw toModelError(error, model);
    }
    if (signal.aborted) {
      yield stopped();
      throw new CancelledError();
    }
    yield* split(thinkTags.end());
    const promptTokens = await countTokens(model, [...plan.map(languageModelMessageText), tools.length > 0 ? JSON.stringify(tools) : ''], cancellation.token);
    const completionTokens = await countTokens(model, [reasoning, content, ...toolCalls.map((call) => `${call.name}(${call.arguments})`)], cancellation.token);
    const usage: TokenUsage = { promptTokens, completionTokens, cachedTokens: undefined, estimated: true };
    return {
      model: settings.model || model.id,
      content,
      reasoning,
      toolCalls,
      ...(nameless > 0 ? { namelessToolCalls: nameless } : {}),
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage,
      durationMs: Date.now() - startedAt,
      attempts: 1,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancellation.dispose();
  }
}

function toModelError(error: unknown, model: vscode.LanguageModelChat): ModelApiError {
  const text = error instanceof Error ? error.message : String(error);
  if (isContextOverflow(error)) {
    return new ContextOverflowError(`VS Code's model ${model.name} says the request does not fit its context window: ${text}`, {
      retryable: false,
      attempts: 1,
      cause: error,
      suggestion: `Start a new chat (Tandem: New Chat) or send a shorter message; ${model.name} takes at most ${model.maxInputTokens} input tokens.`,
    });
  }
  const code = error instanceof vscode.LanguageModelError ? error.code : undefined;
  const suggestion =
    code === 'NoPermissions'
      ? 'Allow Tandem to use this model when VS Code asks, then try again.'
      : code === 'Blocked'
        ? 'The provider blocked the request (often a quota); wait a little or pick another model.'
        : `Check the extension that provides ${model.name} (${model.vendor}).`;
  return new ModelApiError(`VS Code's model ${model.name} failed: ${text}`, { retryable: false, attempts: 1, cause: error, suggestion });
}

/** Settings whose `vscode` models have their window (maxInputTokens) filled in where the user set none. */
export async function withVscodeContextWindows<T extends { functionCallModel: ModelSettings; answerModel: ModelSettings; singleModel: boolean }>(settings: T): Promise<T> {
  const fill = async (model: ModelSettings): Promise<ModelSettings> => {
    if (model.provider !== 'vscode' || (model.contextWindow ?? 0) > 0) return model;
    const chosen = await selectVscodeModel(model.model).then(
      (found) => found,
      () => undefined,
    );
    return chosen && chosen.maxInputTokens > 0 ? { ...model, contextWindow: chosen.maxInputTokens } : model;
  };
  const functionCallModel = await fill(settings.functionCallModel);
  const answerModel = settings.singleModel ? functionCallModel : await fill(settings.answerModel);
  return { ...settings, functionCallModel, answerModel };
}
