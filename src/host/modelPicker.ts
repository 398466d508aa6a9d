// The model pickers of \`tandem.selectModels\`: a quick pick filled from the
// endpoint's /models list, or an input box when the list is unavailable.
import * as vscode from 'vscode';
import type { ModelSettings } from '../models/chatModel';
import { listModels } from '../models/openAiChatModel';
import type { Log } from './outputLog';

export interface ModelList {
  readonly models: string[];
  /** Why the list is unavailable; the pickers fall back to free text. */
  readonly error?: string;
}

/** The endpoint's models (GET /models), or the reason they could not be listed. */
export async function fetchModelList(model: ModelSettings, log: Log, signal?: AbortSignal): Promise<ModelList> {
  const timeout = AbortSignal.timeout(10_000);
  try {
    return { models: await listModels(model, signal ? AbortSignal.any([signal, timeout]) : timeout) };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    log.warn(`could not list the models of ${model.baseUrl}: ${text}`);
    return { models: [], error: text };
  }
}

export async function pickModel(
  title: string,
  models: readonly string[],
  current: string,
  error: string | undefined,
  allowEmpty: boolean,
): Promise<string | undefined> {
  if (models.length === 0) {
    return vscode.window.showInputBox({
      title,
      value: current,
      prompt: error ? `The model list is unavailable (${error}). Type a model name.` : 'Type a model name.',
      validateInput: (value) => (allowEmpty || value.trim() ? undefined : 'A model name is needed.'),
    });
  }
  const items: vscode.QuickPickItem[] = [
    ...(allowEmpty ? [{ label: '', description: 'same as the function-call model' }] : []),
    ...models.map((name) => ({ label: name, description: name === current ? 'current' : undefined })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: current || undefined });
  return picked?.label;
}
