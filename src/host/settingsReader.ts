// Reads `tandem.*` from VS Code settings. Only values the user set explicitly
// are passed on, so environment variables apply where the user set nothing
// and the schema's defaults apply last. Workspace values of guarded settings
// (src/agent/settingsConsent.ts) apply only once the user allowed them.
import * as vscode from 'vscode';
import { resolveSettings, SETTING_KEYS, type AgentSettings, type SettingsWarning } from '../agent/agentSettings';
import { userBaseUrls } from '../agent/apiKeyScope';
import { applyConsent, consentFingerprint, type GuardedValue, type ScopedValues } from '../agent/settingsConsent';
import type { ModelRole } from '../protocol/agentEvents';
import type { ApiKeys } from './secrets';

/** Answers whether this workspace's guarded values (by fingerprint) are allowed. */
export type WorkspaceConsent = (fingerprint: string) => boolean;

export interface ReadSettings {
  readonly settings: AgentSettings;
  /** The workspace's guarded values and their fingerprint. */
  readonly guarded: readonly GuardedValue[];
  readonly fingerprint: string;
  /** True when `guarded` is not empty and did not apply. */
  readonly ignored: boolean;
  /** Base URLs the user set (user settings, environment): where OPENAI_API_KEY may go. */
  readonly userBaseUrls: readonly string[];
}

function inspectAll(configuration: vscode.WorkspaceConfiguration): Record<string, ScopedValues | undefined> {
  const inspected: Record<string, ScopedValues | undefined> = {};
  for (const key of SETTING_KEYS) inspected[key] = configuration.inspect(key);
  return inspected;
}

/** Validated settings; each warning is shown once (window message and log). */
export function readSettings(
  warn: (warning: SettingsWarning) => void,
  consent: WorkspaceConsent,
  env: NodeJS.ProcessEnv = process.env,
): ReadSettings {
  const configuration = vscode.workspace.getConfiguration('tandem');
  const inspected = inspectAll(configuration);
  const { guarded } = applyConsent(inspected, false);
  const fingerprint = consentFingerprint(guarded);
  // Restricted Mode: a workspace's guarded values never apply.
  const allowed = guarded.length > 0 && vscode.workspace.isTrusted && consent(fingerprint);
  const { raw } = applyConsent(inspected, allowed);
  const { settings, settingsWarnings } = resolveSettings(raw, env);
  for (const warning of settingsWarnings) warn(warning);
  const userUrls = userBaseUrls(
    [configuration.inspect('functionCallModel.baseUrl')?.globalValue, configuration.inspect('answerModel.baseUrl')?.globalValue],
    env,
  );
  return { settings, guarded, fingerprint, ignored: guarded.length > 0 && !allowed, userBaseUrls: userUrls };
}

/** A workspace's `tandem.mcp.servers`, when the user allowed the workspace's guarded values; else undefined. */
export function workspaceMcpServersSetting(consent: WorkspaceConsent): unknown {
  const read = readSettings(() => undefined, consent);
  if (read.ignored) return undefined;
  return read.guarded.find(({ key }) => key === 'mcp.servers')?.value;
}

/** Settings with the API keys from SecretStorage (or OPENAI_API_KEY where allowed) filled in. */
export async function withApiKeys(read: Pick<ReadSettings, 'settings' | 'userBaseUrls'>, keys: ApiKeys): Promise<AgentSettings> {
  const { settings } = read;
  const functionCallKey = await keys.keyFor(settings.functionCallModel.baseUrl, read.userBaseUrls);
  const functionCallModel = { ...settings.functionCallModel, apiKey: functionCallKey };
  const answerModel = settings.singleModel
    ? functionCallModel
    : { ...settings.answerModel, apiKey: await keys.keyFor(settings.answerModel.baseUrl, read.userBaseUrls) };
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

/** Writes a setting in the user's (global) settings, whatever the workspace sets. */
export async function writeUserSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('tandem').update(key, value, vscode.ConfigurationTarget.Global);
}

export function modelSettingKey(role: ModelRole): string {
  return role === 'function-call' ? 'functionCallModel.model' : 'answerModel.model';
}

export function providerSettingKey(role: ModelRole): string {
  return role === 'function-call' ? 'functionCallModel.provider' : 'answerModel.provider';
}
