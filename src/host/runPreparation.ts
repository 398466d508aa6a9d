// What happens before a run uses the settings: the workspace's guarded values
// are put to the user (once per exact values), whatever was ignored is said in
// the panel once, Restricted Mode is explained, the keys are filled in for the
// endpoints they belong to, and the run's own preparation (MCP consent) runs.
import * as vscode from 'vscode';
import type { AgentSettings, SettingsWarning } from '../agent/agentSettings';
import { ignoredSettingsNotice } from '../agent/settingsConsent';
import type { NoticeAction, NoticeCode } from '../protocol/agentEvents';
import type { ApiKeys } from './secrets';
import type { SettingsConsentStore } from './settingsConsentStore';
import { readSettings, withApiKeys, type ReadSettings } from './settingsReader';

export type NoticeSink = (code: NoticeCode, message: string, level: 'info' | 'warning', action?: NoticeAction) => void;

export const RESTRICTED_MODE_MESSAGE =
  'Restricted Mode: this folder is not trusted, so Tandem only reads and searches its files. ' +
  'No edits, no commands and no MCP servers; settings of this workspace that route requests or approve tools are ignored. ' +
  'Trust the folder to use every tool.';

export const WORKSPACE_TRUSTED_MESSAGE =
  'This folder is now trusted: every tool is available again; MCP servers start on the next agent run (a workspace-defined one after you allow it).';

export const MANAGE_TRUST_ACTION: NoticeAction = { label: 'Manage Workspace Trust', command: 'workbench.trust.manage' };

export class RunPreparation {
  private readonly noticed = new Set<string>();

  constructor(
    private readonly consent: SettingsConsentStore,
    private readonly keys: ApiKeys,
    private readonly warn: (warning: SettingsWarning) => void,
  ) {}

  read(): ReadSettings {
    return readSettings(this.warn, (fingerprint) => this.consent.isAllowed(fingerprint));
  }

  /** True while this workspace's guarded values wait for the user's answer (the next run asks). */
  consentPending(read: ReadSettings = this.read()): boolean {
    return read.ignored && vscode.workspace.isTrusted && !this.consent.isDecided(read.fingerprint);
  }

  /** Says once per window that the workspace is in Restricted Mode, with the way out. */
  noticeRestricted(notice: NoticeSink): void {
    if (vscode.workspace.isTrusted || this.noticed.has('restricted')) return;
    this.noticed.add('restricted');
    notice('restrictedMode', RESTRICTED_MODE_MESSAGE, 'warning', MANAGE_TRUST_ACTION);
  }

  /**
   * The settings of the run about to start, with keys; asks for consent first when needed.
   * `mode`: the mode this run takes instead of the setting's (a slash command's), as `beforeRun` sees it.
   */
  async prepare(notice: NoticeSink, beforeRun?: (settings: AgentSettings, notice: NoticeSink) => Promise<void>, mode?: AgentSettings['mode']): Promise<AgentSettings> {
    this.noticeRestricted(notice);
    let read = this.read();
    if (read.ignored && vscode.workspace.isTrusted && !this.consent.isDecided(read.fingerprint)) {
      await this.consent.ask(read.guarded, read.fingerprint);
      read = this.read();
    }
    if (read.ignored && !this.noticed.has(read.fingerprint)) {
      this.noticed.add(read.fingerprint);
      notice('settingsIgnored', ignoredSettingsNotice(read.guarded), 'warning');
    }
    const settings = await withApiKeys(read, this.keys);
    await beforeRun?.(mode && mode !== settings.mode ? { ...settings, mode } : settings, notice);
    return settings;
  }
}
