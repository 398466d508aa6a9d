// A server's prompt typed as `/<server>.<prompt>` in the prompt box: the
// arguments come from `name=value` words after the command, and VS Code's
// input box asks for each one still missing (a required one must not be
// empty). The prompt's text then goes out as the user's message. Text that
// names no known prompt is sent unchanged.
import * as vscode from 'vscode';
import type { McpHub } from '../mcp/mcpHub';
import { parseSlashArguments } from '../common/slashArguments';

const COMMAND = /^\/(\S+)(?:\s+([\s\S]*))?$/;

/** The prompt's text; undefined when `text` is no prompt command; null when the user cancelled. */
export async function expandSlashCommand(hub: McpHub, text: string): Promise<string | undefined | null> {
  const match = COMMAND.exec(text.trim());
  if (match === null) return undefined;
  const found = hub.promptCommands().find((each) => each.command === match[1]);
  if (found === undefined) return undefined;
  const given = parseSlashArguments(match[2] ?? '');
  const args: Record<string, string> = {};
  for (const argument of found.prompt.arguments) {
    const inline = given.get(argument.name);
    if (inline !== undefined) {
      args[argument.name] = inline;
      continue;
    }
    const value = await vscode.window.showInputBox({
      title: `/${found.command}`,
      prompt: `${argument.name}${argument.required ? '' : ' (optional)'}${argument.description === undefined ? '' : ` — ${argument.description}`}`,
      ignoreFocusOut: true,
      validateInput: (input) => (argument.required && input.trim() === '' ? `${argument.name} is required.` : undefined),
    });
    if (value === undefined) return null;
    if (value !== '') args[argument.name] = value;
  }
  const cancellation = new AbortController();
  return hub.runPromptCommand(found.command, args, cancellation.signal);
}
