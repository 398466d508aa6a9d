// The user's answers about a workspace's guarded setting values. "Allow" is
// remembered per workspace and per exact values (their fingerprint), so a
// changed value asks again; "Use my settings" holds for this window only.
import * as vscode from 'vscode';
import { describeGuardedValues, type GuardedValue } from '../agent/settingsConsent';
import { workspaceKey } from './workspaceIdentity';

const stateKey = 'tandem.settingsConsent';

export class SettingsConsentStore {
  private readonly declined = new Set<string>();
  private asking: Promise<boolean> | undefined;

  constructor(private readonly globalState: vscode.Memento) {}

  private entry(fingerprint: string): string {
    return `${workspaceKey()}:${fingerprint}`;
  }

  isAllowed(fingerprint: string): boolean {
    return (this.globalState.get<string[]>(stateKey) ?? []).includes(this.entry(fingerprint));
  }

  /** True when the user has answered for these values (in this window or before). */
  isDecided(fingerprint: string): boolean {
    return this.isAllowed(fingerprint) || this.declined.has(this.entry(fingerprint));
  }

  /** Asks with a modal dialog naming every value; one dialog at a time. */
  ask(guarded: readonly GuardedValue[], fingerprint: string): Promise<boolean> {
    this.asking ??= this.askNow(guarded, fingerprint).finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async askNow(guarded: readonly GuardedValue[], fingerprint: string): Promise<boolean> {
    const allow = 'Allow';
    const choice = await vscode.window.showWarningMessage(
      "This workspace's settings change where Tandem sends requests or which tools run without asking. Use them?",
      {
        modal: true,
        detail:
          `${describeGuardedValues(guarded)}\n\n` +
          'Allow only if you trust this workspace: a base URL receives your prompts, the files the agent reads and the API key meant for it. ' +
          'Otherwise your own settings apply.',
      },
      // The safe answer first: it is the button Enter presses.
      'Use My Settings',
      allow,
    );
    const entry = this.entry(fingerprint);
    if (choice === allow) {
      const entries = this.globalState.get<string[]>(stateKey) ?? [];
      await this.globalState.update(stateKey, [...entries.filter((known) => known !== entry), entry]);
      return true;
    }
    this.declined.add(entry);
    return false;
  }

  /** Forgets every answer (all workspaces). */
  async reset(): Promise<void> {
    this.declined.clear();
    await this.globalState.update(stateKey, undefined);
  }
}
