// Extension-host suite for the panel's commands: they run from the palette
// (executeCommand) and act on the settings the way the panel's toggles do.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const configuration = () => vscode.workspace.getConfiguration('tandem');

async function settingChange(key: string, expected: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (configuration().get(key) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(configuration().get(key), expected);
}

describe('Tandem panel commands', () => {
  before(async () => {
    await vscode.extensions.getExtension('tandem-dev.tandem')?.activate();
  });

  after(async () => {
    await configuration().update('agent.mode', undefined, vscode.ConfigurationTarget.Global);
    await configuration().update('agent.responseMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('tandem.toggleMode switches between agent and chat mode', async () => {
    const before = configuration().get<string>('agent.mode');
    const other = before === 'chat' ? 'agent' : 'chat';
    await vscode.commands.executeCommand('tandem.toggleMode');
    await settingChange('agent.mode', other);
    await vscode.commands.executeCommand('tandem.toggleMode');
    await settingChange('agent.mode', before ?? 'agent');
  });

  it('tandem.toggleResponseMode switches between integrated and streaming', async () => {
    const before = configuration().get<string>('agent.responseMode');
    const other = before === 'streaming' ? 'integrated' : 'streaming';
    await vscode.commands.executeCommand('tandem.toggleResponseMode');
    await settingChange('agent.responseMode', other);
    await vscode.commands.executeCommand('tandem.toggleResponseMode');
    await settingChange('agent.responseMode', before ?? 'integrated');
  });

  it('tandem.newChat, tandem.stop and tandem.showLog run without a run in progress', async () => {
    await vscode.commands.executeCommand('tandem.newChat');
    await vscode.commands.executeCommand('tandem.stop');
    await vscode.commands.executeCommand('tandem.showLog');
  });
});
