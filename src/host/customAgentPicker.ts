// Tandem: Choose Custom Agent… — the workspace's custom agents in a quick
// pick (customAgents.ts); the choice is written to the workspace's settings,
// where the agents live.
import * as vscode from 'vscode';
import { CUSTOM_AGENT_PATTERNS } from '../tools/customAgents';
import { workspaceCustomAgents } from './workspaceCustomAgents';

const SETTING = 'agent.customAgent';

/** Resolves with the name chosen ('' for none), or undefined when nothing changed. */
export async function chooseCustomAgent(): Promise<string | undefined> {
  const agents = await workspaceCustomAgents();
  const current = vscode.workspace.getConfiguration('tandem').get<string>(SETTING) ?? '';
  if (agents.length === 0) {
    void vscode.window.showInformationMessage(`Tandem: this workspace has no custom agents. Add one as ${CUSTOM_AGENT_PATTERNS.map((pattern) => pattern.replace('*', '<name>')).join(', ')}.`);
    return undefined;
  }
  const items: (vscode.QuickPickItem & { readonly value: string })[] = [
    { label: 'None', description: current === '' ? '(current)' : undefined, detail: 'Runs follow the rules files alone, with every tool.', value: '' },
    ...agents.map((agent) => ({
      label: agent.name,
      description: [agent.name === current ? '(current)' : undefined, agent.description].filter(Boolean).join(' '),
      detail: `${agent.file}${agent.tools ? ` · tools: ${agent.tools.join(', ') || 'none'}` : ''}`,
      value: agent.name,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Tandem: Choose Custom Agent', placeHolder: 'The agent every run works as' });
  if (picked === undefined || picked.value === current) return undefined;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('tandem').update(SETTING, picked.value, target);
  return picked.value;
}
