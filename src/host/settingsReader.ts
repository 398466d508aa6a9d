// Reads `tandem.*` from VS Code settings. Only values the user set explicitly
// (user, workspace or folder scope) are passed on, so environment variables
// apply where the user set nothing and the schema's defaults apply last.
import * as vscode from 'vscode';
import { resolveSettings, SETTING_KEYS, type AgentSettings, type RawSettings, type SettingKey } from '../agent/agentSettings';
import type { ModelRole } from '../protocol/agentEvents';
import type { ApiKeys } from './secrets';

export function readRawSettings(configuration = vscode.workspace.getConfiguration('tandem')): RawSettings {
  const raw: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const inspected = configuration.inspect(key);
    if (!inspected) continue;
    const explicit = inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
    if (explicit !== undefined) raw[key] = explicit;
  }
  return raw;
}

/** Validated settings; each warning is shown once (window message and log). */
export function readSettings(warn: (message: string) => void, env: NodeJS.ProcessEnv = process.env): AgentSettings {
  const { settings, warnings } = resolveSettings(readRawSettings(), env);
  for (const warning of warnings) warn(warning);
  return settings;
}

/** Settings with the API keys from SecretStorage (or OPENAI_API_KEY) filled in. */
export async function withApiKeys(settings: AgentSettings, keys: ApiKeys): Promise<AgentSettings> {
  const functionCallKey = await keys.keyFor(settings.functionCallModel.baseUrl);
  const functionCallModel = { ...settings.functionCallModel, apiKey: functionCallKey };
  const answerModel = settings.singleModel
    ? functionCallModel
    : { ...settings.answerModel, apiKey: await keys.keyFor(settings.answerModel.baseUrl) };
  return { ...settings, functionCallModel, answerModel };
}

/**
 * Writes a setting where the user keeps it: the innermost scope that already
 * sets it, else the user (global) settings.
 */
export async function writeSetting(key: string, value: unknown): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('tandem');
  const inspected = configuration.inspect(key);
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await configuration.update(key, value, target);
}

export function modelSettingKey(role: ModelRole): string {
  return role === 'function-call' ? 'functionCallModel.model' : 'answerModel.model';
}
