// Which workspace setting values need the user's consent, and what applies
// meanwhile. A workspace (its .vscode/settings.json or .code-workspace file)
// is untrusted: values that route requests or hold tools and approvals take
// effect only once the user allowed exactly those values for that workspace;
// until then the user's own value (or the environment, or the default) applies.
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonicalJson';

/** What `WorkspaceConfiguration.inspect()` reports for one key. */
export interface ScopedValues {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** A workspace's value of a guarded setting (key without the `tandem.` prefix). */
export interface GuardedValue {
  readonly key: string;
  readonly value: unknown;
}

/**
 * Settings whose workspace values need consent: `*.baseUrl`, `*.provider`,
 * `tools.*`, `mcp.servers`, `prompts`, and `agent.rulesFiles` (the files whose
 * text goes to the model's host: a workspace could name its `.env`).
 */
export function isGuardedSetting(key: string): boolean {
  return (
    key.endsWith('.baseUrl') || key.endsWith('.provider') || key.startsWith('tools.') || key === 'mcp.servers' || key === 'prompts' || key === 'agent.rulesFiles' || key === 'pricing'
  );
}

/** Spending caps (0 = off): a workspace may tighten the user's, never lift them, so it needs no consent. */
const SPENDING_CAPS = new Set(['agent.maxCostPerRun', 'agent.maxTokensPerRun']);

/**
 * The stricter of two caps where 0 means none. A workspace value that is not
 * a valid cap (a string, a fraction of a token) would fall back to the
 * default, no cap: it is not taken while the user has one.
 */
function stricterCap(key: string, user: unknown, workspace: unknown): unknown {
  const valid = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && (key !== 'agent.maxTokensPerRun' || Number.isInteger(value));
  if (!valid(user) || user === 0) return workspace;
  if (!valid(workspace) || workspace === 0) return user;
  return Math.min(user, workspace);
}

/**
 * Whether a workspace's value of `key` (a full `tandem.` key the workspace
 * sets) is the one in force: a guarded key's only when the workspace's guarded
 * values were not ignored (the user allowed them).
 */
export function workspaceValueApplies(key: string, guardedIgnored: boolean): boolean {
  return !(guardedIgnored && isGuardedSetting(key.replace(/^tandem\./u, '')));
}

export interface ConsentedSettings {
  /** Explicit values that apply: the innermost scope, workspace scopes of guarded keys only when allowed. */
  readonly raw: Record<string, unknown>;
  /** Workspace values of guarded keys (whether or not they apply). */
  readonly guarded: readonly GuardedValue[];
}

/**
 * The explicit values that apply. `workspaceAllowed` says whether the user
 * allowed this workspace's guarded values (exactly these; see consentFingerprint).
 */
export function applyConsent(inspected: Readonly<Record<string, ScopedValues | undefined>>, workspaceAllowed: boolean): ConsentedSettings {
  const raw: Record<string, unknown> = {};
  const guarded: GuardedValue[] = [];
  for (const [key, scoped] of Object.entries(inspected)) {
    if (!scoped) continue;
    const workspace = scoped.workspaceFolderValue ?? scoped.workspaceValue;
    const guard = isGuardedSetting(key);
    if (guard && workspace !== undefined) guarded.push({ key, value: workspace });
    const explicit = SPENDING_CAPS.has(key)
      ? stricterCap(key, scoped.globalValue, workspace ?? scoped.globalValue)
      : guard && !workspaceAllowed
        ? scoped.globalValue
        : (workspace ?? scoped.globalValue);
    if (explicit !== undefined) raw[key] = explicit;
  }
  guarded.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { raw, guarded };
}

/** Identifies exactly these values: any change gives another fingerprint, so consent is asked again. */
export function consentFingerprint(guarded: readonly GuardedValue[]): string {
  return createHash('sha256').update(canonicalJson(guarded)).digest('hex');
}

/**
 * Every value, whole, for the consent prompt: `tandem.key = value`, a list or
 * an object one entry a line. Nothing is cut: Allow takes exactly what is
 * shown (an entry hidden past a cut would be allowed unseen). What lets every
 * call run unasked is also said in words.
 */
export function describeGuardedValues(guarded: readonly GuardedValue[]): string {
  const values = guarded.map(({ key, value }) => {
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2) : (JSON.stringify(value) ?? String(value));
    return `tandem.${key} = ${text}`;
  });
  const warnings = guarded.flatMap(({ key, value }) => {
    if (key === 'tools.autoApprove' && value === 'all') return ['Note: tandem.tools.autoApprove = "all" runs every tool call unasked, file changes included.'];
    if (key === 'tools.alwaysAllow' && Array.isArray(value) && value.some((entry) => typeof entry === 'string' && entry.trim() === 'run_command')) {
      return ['Note: tandem.tools.alwaysAllow holds "run_command": every command would run unasked.'];
    }
    return [];
  });
  // The warnings first: a long list would push them out of sight.
  return [...warnings, ...values].join('\n');
}

/** The panel's notice when the values were not allowed. */
export function ignoredSettingsNotice(guarded: readonly GuardedValue[]): string {
  const keys = guarded.map(({ key }) => `tandem.${key}`).join(', ');
  return (
    `This workspace's settings set ${keys}; they route requests or approve tools, so Tandem ignored them and used your own settings. ` +
    'Tandem asks again in a new window or when the values change; choose "Allow" there to use them.'
  );
}
