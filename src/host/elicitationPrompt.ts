// Until the panel has its elicitation card, VS Code's own quick input asks an
// MCP server's question: the message first (accept, decline), then one input
// per field of the schema, validated as typed, the schema's default prefilled.
// Escape at any point cancels; a URL question offers to open the page.
import * as vscode from 'vscode';
import { CancelledError } from '../agent/errors';
import type { Elicitor } from '../agent/runElicitation';
import type { ElicitationPayload } from '../protocol/agentEvents';
import type { ElicitationAnswer, ElicitationSchema } from '../tools/elicitation';
import { enumValues, validateElicitationContent } from '../tools/elicitationValidation';

type FieldValue = string | number | boolean | string[];

export const quickInputElicitor: Elicitor = {
  ask: async (prompt, signal) => {
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = (): void => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await ask(prompt, cancellation.token);
      if (signal.aborted) throw new CancelledError();
      return answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  },
};

async function ask(prompt: ElicitationPayload, token: vscode.CancellationToken): Promise<ElicitationAnswer> {
  const title = `MCP server "${prompt.serverName}" asks`;
  if (prompt.mode === 'url') {
    const choice = await vscode.window.showInformationMessage(`${title}: ${prompt.message}\n${prompt.url ?? ''}`, { modal: true }, 'Open', 'Decline');
    if (choice === 'Open' && prompt.url !== undefined) {
      await vscode.env.openExternal(vscode.Uri.parse(prompt.url));
      return { action: 'accept' };
    }
    return choice === 'Decline' ? { action: 'decline' } : { action: 'cancel' };
  }
  const start = await vscode.window.showQuickPick(['Answer', 'Decline'], { title, placeHolder: prompt.message, ignoreFocusOut: true }, token);
  if (start === undefined) return { action: 'cancel' };
  if (start === 'Decline') return { action: 'decline' };
  const schema = prompt.requestedSchema ?? { type: 'object', properties: {} };
  const content: Record<string, FieldValue> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = await askField(title, name, property, schema, token);
    if (value === null) return { action: 'cancel' };
    if (value !== undefined) content[name] = value;
  }
  return { action: 'accept', content };
}

/** One field: undefined = left out, null = cancelled. */
async function askField(
  title: string,
  name: string,
  property: Readonly<Record<string, unknown>>,
  schema: ElicitationSchema,
  token: vscode.CancellationToken,
): Promise<FieldValue | undefined | null> {
  const label = typeof property['title'] === 'string' ? property['title'] : name;
  const description = typeof property['description'] === 'string' ? property['description'] : undefined;
  const required = schema.required?.includes(name) === true;
  const fallback = property['default'];
  const choices = property['type'] === 'boolean' ? ['true', 'false'] : enumValues(property);
  if (choices !== undefined) {
    const items = required ? choices : [...choices, '(leave out)'];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: `${label}${description === undefined ? '' : ` — ${description}`}`, ignoreFocusOut: true }, token);
    if (picked === undefined) return null;
    if (picked === '(leave out)') return undefined;
    return property['type'] === 'boolean' ? picked === 'true' : picked;
  }
  const numeric = property['type'] === 'number' || property['type'] === 'integer';
  const text = await vscode.window.showInputBox(
    {
      title,
      prompt: `${label}${required ? '' : ' (optional)'}${description === undefined ? '' : ` — ${description}`}`,
      value: fallback === undefined ? '' : String(fallback),
      ignoreFocusOut: true,
      validateInput: (input) => {
        if (input === '') return required ? `${label} is required.` : undefined;
        const value = numeric ? Number(input) : input;
        return validateElicitationContent({ type: 'object', properties: { [name]: property } }, { [name]: value })[0];
      },
    },
    token,
  );
  if (text === undefined) return null;
  if (text === '') return undefined;
  return numeric ? Number(text) : text;
}
