// The window message for warnings: which setting each is about, and one toast
// for those that come together. Plain data, so it is tested without VS Code.
import type { SettingsWarning } from '../agent/agentSettings';

/** A `tandem.*` key as a text writes it (`tandem.functionCallModel.*` gives its prefix). */
const SETTING_NAME = /\btandem\.[\w.]*\w/;

/**
 * A warning with the setting it is about. One that says (the settings reader's)
 * is taken at its word, even when it names none; a bare text is read for its
 * first `tandem.*` key, a guess that can pick the wrong one when it names two.
 */
export function aboutSetting(warning: string | SettingsWarning): SettingsWarning {
  if (typeof warning !== 'string') return warning;
  const setting = SETTING_NAME.exec(warning)?.[0];
  return setting === undefined ? { message: warning } : { message: warning, setting };
}

export interface WarningToast {
  readonly text: string;
  /** The distinct settings the warnings are about, in order: what `open` opens. */
  readonly settings: readonly string[];
  /** The button that opens them; absent when no setting fixes any of them. */
  readonly open?: 'Open Setting' | 'Open Settings';
  /** Several warnings share the toast, which shows only the first: the log has them all. */
  readonly showAll: boolean;
}

/** One warning is shown as it is; several, as how many, their settings, and the first. */
export function warningToast(warnings: readonly SettingsWarning[]): WarningToast {
  const settings = [...new Set(warnings.flatMap(({ setting }) => setting ?? []))];
  const open = settings.length === 0 ? undefined : settings.length === 1 ? 'Open Setting' : 'Open Settings';
  const first = warnings[0]?.message ?? '';
  if (warnings.length <= 1) return { text: `Tandem: ${first}`, settings, open, showAll: false };
  const named = settings.length > 0 ? ` (${settings.join(', ')})` : '';
  return { text: `Tandem: ${warnings.length} warnings${named}. ${first} …`, settings, open, showAll: true };
}
