// The model pickers of \`tandem.selectModels\`: a quick pick filled from the
// endpoint's /models list, or an input box when the list is unavailable.
import * as vscode from 'vscode';
import type { ModelSettings } from '../models/chatModel';
import { listModels } from '../models/openAiChatModel';
import type { Log } from './outputLog';
import type { VscodeModelInfo } from './vscodeChatModel';

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

/** What the user picked: a model name and where it runs. */
export interface PickedModel {
  readonly model: string;
  readonly provider: 'openai' | 'vscode';
}

/** Said in the picker where VS Code offers no language models (a plain code-server, no Copilot). */
export const NO_VSCODE_MODELS = "VS Code offers no language models here (an extension such as GitHub Copilot Chat provides them).";

type ModelItem = vscode.QuickPickItem & { readonly pick?: PickedModel | 'type' };

/**
 * One quick pick with the endpoint's models and, beside them, VS Code's
 * language models (or a line saying there are none). Free text when neither
 * list has anything, or when the user chooses to type a name.
 */
export async function pickModel(
  title: string,
  endpoint: { readonly baseUrl: string; readonly models: readonly string[]; readonly error: string | undefined },
  /** undefined: VS Code's models are not offered (an endpoint's own setup). */
  vscodeModels: readonly VscodeModelInfo[] | undefined,
  current: PickedModel,
  allowEmpty: boolean,
): Promise<PickedModel | undefined> {
  const typeName = (): Thenable<PickedModel | undefined> =>
    vscode.window
      .showInputBox({
        title,
        value: current.provider === 'openai' ? current.model : '',
        prompt: `${endpoint.error ? `The model list of ${endpoint.baseUrl} is unavailable (${endpoint.error}). ` : ''}${vscodeModels?.length === 0 ? `${NO_VSCODE_MODELS} ` : ''}Type a model name of ${endpoint.baseUrl}.`,
        validateInput: (value) => (allowEmpty || value.trim() ? undefined : 'A model name is needed.'),
      })
      .then((value) => (value === undefined ? undefined : { model: value.trim(), provider: 'openai' }));
  if (endpoint.models.length === 0 && !vscodeModels?.length) return typeName();
  const isCurrent = (pick: PickedModel) => pick.provider === current.provider && pick.model === current.model;
  const items: ModelItem[] = [
    ...(allowEmpty ? [{ label: '', description: 'same as the function-call model', pick: { model: '', provider: current.provider } as PickedModel }] : []),
    { label: endpoint.baseUrl, kind: vscode.QuickPickItemKind.Separator },
    ...endpoint.models.map((model): ModelItem => {
      const pick: PickedModel = { model, provider: 'openai' };
      return { label: model, description: isCurrent(pick) ? 'current' : undefined, pick };
    }),
    {
      label: '$(edit) Type a model name…',
      description: endpoint.error ? `the list is unavailable: ${endpoint.error}` : undefined,
      pick: 'type',
    },
    ...(vscodeModels === undefined ? [] : vscodeModelItems(vscodeModels, isCurrent)),
  ];
  // The list opens on the current model, so Enter keeps it rather than picking the first one.
  const active = items.find((item) => typeof item.pick === 'object' && isCurrent(item.pick));
  for (;;) {
    const picked = await choose(items, active, { title, placeholder: current.model || undefined });
    if (picked === undefined) return undefined;
    if (picked.pick === 'type') return typeName();
    if (picked.pick) return picked.pick;
    // The "no models" line is information only: ask again.
  }
}

function vscodeModelItems(vscodeModels: readonly VscodeModelInfo[], isCurrent: (pick: PickedModel) => boolean): ModelItem[] {
  return [
    { label: "VS Code's language models", kind: vscode.QuickPickItemKind.Separator },
    ...(vscodeModels.length === 0
      ? [{ label: '$(info) No VS Code language models', detail: NO_VSCODE_MODELS } satisfies ModelItem]
      : vscodeModels.map((model): ModelItem => {
          const pick: PickedModel = { model: model.id, provider: 'vscode' };
          return { label: model.name, description: `${model.vendor} · ${model.id}${isCurrent(pick) ? ' · current' : ''}`, pick };
        })),
  ];
}

/** A quick pick that opens with `active` highlighted (showQuickPick always starts on the first item). */
function choose(items: readonly ModelItem[], active: ModelItem | undefined, options: { title: string; placeholder: string | undefined }): Promise<ModelItem | undefined> {
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<ModelItem>();
    quickPick.title = options.title;
    quickPick.placeholder = options.placeholder;
    quickPick.matchOnDescription = true;
    quickPick.items = items;
    if (active) quickPick.activeItems = [active];
    quickPick.onDidAccept(() => {
      resolve(quickPick.selectedItems[0] ?? quickPick.activeItems[0]);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
}
