// The title of the prompt for an MCP `${input:id}` value. The input's
// description is written by whoever wrote the config file (a cloned
// repository's .vscode/mcp.json, say), so it may ask for anything; the title is
// Tandem's own words: which server needs the value, and which file asks.
import type { McpInputDefinition } from './mcpConfig';
import type { InputAsker } from './mcpVariables';

/** `file` as the user should read it (relative to the workspace when inside it). */
export function inputPromptTitle(input: McpInputDefinition, asker: InputAsker, file: string): string {
  const what = input.type === 'promptString' && input.password ? 'a secret' : 'a value';
  return `Tandem: MCP server "${asker.server}" (${fileLabel(file)}) asks for ${what}: \${input:${input.id}}`;
}

function fileLabel(file: string): string {
  if (file === 'settings') return 'your settings';
  return file;
}
