// Extension-host suite: the Tandem extension as VS Code itself sees it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const extensionId = 'tandem-dev.tandem';

// The user-facing contract of DESIGN.md.
const designCommands = [
  'tandem.newChat',
  'tandem.stop',
  'tandem.toggleMode',
  'tandem.toggleResponseMode',
  'tandem.setApiKey',
  'tandem.selectModels',
  'tandem.askAboutSelection',
  'tandem.exportTranscript',
  'tandem.showMcpServers',
  'tandem.showLog',
];

const designSettings = [
  'tandem.functionCallModel.baseUrl',
  'tandem.functionCallModel.model',
  'tandem.functionCallModel.temperature',
  'tandem.functionCallModel.maxTokens',
  'tandem.answerModel.baseUrl',
  'tandem.answerModel.model',
  'tandem.answerModel.temperature',
  'tandem.answerModel.maxTokens',
  'tandem.agent.mode',
  'tandem.agent.maxIterations',
  'tandem.agent.maxExecutionSeconds',
  'tandem.agent.responseMode',
  'tandem.agent.nonToolReply',
  'tandem.agent.verbose',
  'tandem.tools.autoApprove',
  'tandem.mcp.servers',
  'tandem.pricing',
];

describe('Tandem extension in the extension host', () => {
  it('is installed under its manifest id', () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not among the installed extensions`);
    assert.equal(extension.packageJSON.publisher, 'tandem-dev');
    assert.equal(extension.packageJSON.name, 'tandem');
  });

  it('activates without throwing', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers every command of DESIGN.md', async () => {
    await vscode.extensions.getExtension(extensionId)?.activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = designCommands.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });

  it('contributes every setting of DESIGN.md with a default VS Code knows', () => {
    const configuration = vscode.workspace.getConfiguration();
    const unknown = designSettings.filter((key) => configuration.inspect(key)?.defaultValue === undefined);
    assert.deepEqual(unknown, [], `settings VS Code does not know: ${unknown.join(', ')}`);
  });

  it('contributes the tandem.chat webview view in the tandem activity-bar container', () => {
    const contributes = vscode.extensions.getExtension(extensionId)?.packageJSON.contributes as {
      viewsContainers: { activitybar: { id: string }[] };
      views: Record<string, { id: string; type?: string }[]>;
    };
    assert.ok(contributes.viewsContainers.activitybar.some((container) => container.id === 'tandem'));
    const view = contributes.views['tandem']?.find((candidate) => candidate.id === 'tandem.chat');
    assert.equal(view?.type, 'webview');
  });
});
