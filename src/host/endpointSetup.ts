// Tandem: Use an OpenAI-Compatible Endpoint… The way in for a hosted endpoint
// other than OpenAI (OpenRouter, Groq, a team's vLLM): its base URL, its key,
// then a model from its own /models list, each step in one place. Nothing is
// written until the model is chosen; the base URL goes last, so the welcome
// view leaves once the whole of it is in place.
import * as vscode from 'vscode';
import type { AgentSettings } from '../agent/agentSettings';
import { endpointFromInput } from '../agent/endpointInput';
import { unlistedModel } from '../models/modelUsability';
import { signalFromToken } from './cancellation';
import { fetchModelList, pickModel } from './modelPicker';
import type { Log } from './outputLog';
import type { ApiKeys } from './secrets';
import { writeUserSetting } from './settingsReader';

export interface EndpointSetupHost {
  readonly keys: ApiKeys;
  readonly log: Log;
  readonly settings: () => AgentSettings;
  /** Runs the writes so that the states between them raise no warnings. */
  readonly settling: (write: () => Promise<void>) => Promise<void>;
}

/** Runs the three steps; resolves true once the settings name the endpoint and its model. */
export async function useEndpoint(host: EndpointSetupHost): Promise<boolean> {
  const before = host.settings();
  const typed = await vscode.window.showInputBox({
    title: 'Tandem: OpenAI-compatible endpoint (1 of 3): base URL',
    prompt: "The API's base URL, usually ending in /v1 (OpenRouter: https://openrouter.ai/api/v1; Ollama: http://localhost:11434/v1).",
    placeHolder: 'https://openrouter.ai/api/v1',
    value: before.functionCallModel.provider === 'vscode' ? '' : before.functionCallModel.baseUrl,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const input = endpointFromInput(value);
      return 'problem' in input ? input.problem : undefined;
    },
  });
  const input = typed === undefined ? undefined : endpointFromInput(typed);
  if (!input || 'problem' in input) return false;
  const baseUrl = input.baseUrl;

  // The key a request would carry (a stored one, else OPENAI_API_KEY as for any base URL the user sets); only a stored one is "kept".
  const stored = await host.keys.keyFor(baseUrl, [baseUrl]);
  const storedHere = await host.keys.has(baseUrl);
  const key = await vscode.window.showInputBox({
    title: `Tandem: OpenAI-compatible endpoint (2 of 3): API key for ${baseUrl}`,
    prompt: storedHere
      ? 'A key is stored for this endpoint: leave empty to keep it. Kept in VS Code SecretStorage and sent only to this endpoint.'
      : stored !== undefined
        ? // OPENAI_API_KEY goes to a base URL the user sets: say so before it is used for this one.
          'Leave empty to use OPENAI_API_KEY from your environment here, or type this endpoint\'s key (kept in VS Code SecretStorage and sent only to this endpoint).'
        : 'Leave empty for a server that needs none. Kept in VS Code SecretStorage and sent only to this endpoint.',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return false;
  const apiKey = key.trim() || stored;

  const current = before.functionCallModel;
  const list = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Tandem: listing the models of ${baseUrl}…`, cancellable: true },
    async (_progress, token) => {
      const cancellation = signalFromToken(token);
      try {
        return await fetchModelList({ baseUrl, model: '', apiKey }, host.log, cancellation.signal);
      } finally {
        cancellation.dispose();
      }
    },
  );
  const title = 'Tandem: OpenAI-compatible endpoint (3 of 3): model';
  const sameEndpoint = current.baseUrl === baseUrl && current.provider !== 'vscode';
  const picked = await pickModel(title, { baseUrl, models: list.models, error: list.error }, undefined, { model: sameEndpoint ? current.model : '', provider: 'openai' }, false);
  if (!picked?.model) return false;

  // An answer model that follows the function-call model's base URL would be asked for at the new endpoint by its old
  // name: dropped when the endpoint's list is known and does not have it. It follows when both resolve to one URL
  // and the user gave it none of its own (in settings or AGENT_ANSWER_MODEL, which this user-settings write
  // would otherwise override).
  const ownAnswerBaseUrl = String(vscode.workspace.getConfiguration('tandem').inspect<string>('answerModel.baseUrl')?.globalValue ?? '').trim();
  const answerFollows =
    !before.singleModel &&
    before.answerModel.provider !== 'vscode' &&
    before.answerModel.baseUrl === current.baseUrl &&
    ownAnswerBaseUrl === '' &&
    !process.env['AGENT_ANSWER_MODEL'];
  const dropAnswer = answerFollows && unlistedModel(before.answerModel.model, list.models) !== undefined;
  await host.settling(async () => {
    // The key first: the settings that follow make the model usable only with it.
    if (key.trim()) await host.keys.set(baseUrl, key.trim());
    await writeUserSetting('functionCallModel.model', picked.model);
    if (current.provider === 'vscode') await writeUserSetting('functionCallModel.provider', 'openai');
    if (dropAnswer) await writeUserSetting('answerModel.model', '');
    await writeUserSetting('functionCallModel.baseUrl', baseUrl);
  });
  const after = host.settings();
  if (dropAnswer && after.singleModel) {
    void vscode.window.showInformationMessage(
      `Tandem: ${picked.model} now serves both phases (the answer model ${before.answerModel.model} is not listed at ${baseUrl}). Tandem: Select Models sets another.`,
    );
  }
  host.log.info(`endpoint: the function-call model is now ${picked.model} at ${baseUrl} (user settings${key.trim() ? ', key stored' : ''})`);

  // A workspace (or folder) value wins over the user's.
  const overridden = [
    after.functionCallModel.provider !== 'openai' && 'tandem.functionCallModel.provider',
    after.functionCallModel.baseUrl !== baseUrl && 'tandem.functionCallModel.baseUrl',
    after.functionCallModel.model !== picked.model && 'tandem.functionCallModel.model',
    dropAnswer && !after.singleModel && 'tandem.answerModel.model',
  ].filter((key): key is string => typeof key === 'string');
  if (overridden.length > 0) {
    void vscode.window.showWarningMessage(
      `Tandem: this workspace's settings set ${overridden.join(', ')}, which ${overridden.length === 1 ? 'wins' : 'win'} over the user settings just written.`,
    );
  }
  return true;
}
