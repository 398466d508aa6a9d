// The headless server's settings: a JSON (or JSONC) file with the same
// `tandem.*` keys as settings.json, validated by the same code the extension
// uses. Environment variables apply where the file is silent.
import { readFileSync } from 'node:fs';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { resolveSettings, SETTING_KEYS, type AgentSettings, type RawSettings, type SettingKey } from '../agent/agentSettings';
import { AGUI_SETTING_KEYS, resolveAgUiSettings, type AgUiSettingKey, type AgUiSettings } from '../agui/agUiSettings';
import { ConfigurationError } from '../common/errors';
import { lineAndColumn } from '../common/textPosition';

export interface LoadedSettings {
  readonly agent: AgentSettings;
  readonly agui: AgUiSettings;
  /** True when the file sets `tandem.agui.port` (else the headless server picks a free port). */
  readonly aguiPortSet: boolean;
  /** Bad or unknown values, each naming the key; the defaults were used. */
  readonly warnings: readonly string[];
}

const agentKeys = new Set<string>(SETTING_KEYS);
const aguiKeys = new Set<string>(AGUI_SETTING_KEYS);

/** Splits a settings object into the agent's and the endpoint's raw values. */
export function splitSettings(values: Record<string, unknown>): { agent: RawSettings; agui: Partial<Record<AgUiSettingKey, unknown>>; warnings: string[] } {
  const agent: Partial<Record<SettingKey, unknown>> = {};
  const agui: Partial<Record<AgUiSettingKey, unknown>> = {};
  const warnings: string[] = [];
  for (const [fullKey, value] of Object.entries(values)) {
    if (!fullKey.startsWith('tandem.')) continue; // a settings.json holds other extensions' keys too
    const key = fullKey.slice('tandem.'.length);
    if (agentKeys.has(key)) agent[key as SettingKey] = value;
    else if (aguiKeys.has(key)) agui[key as AgUiSettingKey] = value;
    else warnings.push(`${fullKey} is not a Tandem setting; it is ignored.`);
  }
  return { agent, agui, warnings };
}

export function parseSettingsText(text: string, source: string, env: NodeJS.ProcessEnv = process.env): LoadedSettings {
  const errors: ParseError[] = [];
  const root: unknown = text.trim() === '' ? {} : parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new ConfigurationError(`${source} is not valid JSON: ${errors.slice(0, 3).map((fault) => `${printParseErrorCode(fault.error)} at ${lineAndColumn(text, fault.offset)}`).join('; ')}.`);
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new ConfigurationError(`${source}: the top level must be an object of "tandem.*" keys.`);
  const split = splitSettings(root as Record<string, unknown>);
  const agent = resolveSettings(split.agent, env);
  const agui = resolveAgUiSettings(split.agui);
  return { agent: agent.settings, agui: agui.settings, aguiPortSet: split.agui['agui.port'] !== undefined, warnings: [...split.warnings, ...agent.warnings, ...agui.warnings] };
}

/** Reads the file; no file: every setting from the environment or its default. */
export function loadSettingsFile(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedSettings {
  if (file === undefined) return parseSettingsText('', 'defaults', env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`Cannot read the settings file ${file}: ${(error as Error).message}`);
  }
  return parseSettingsText(text, file, env);
}
