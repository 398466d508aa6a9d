// Suggestions for the prompt box: while the text is `/` plus part of a
// command, the MCP prompts and prompt files that match are listed above the box; Up/Down move,
// Enter or Tab (or a click) complete the command, Escape closes the list. The
// host expands the command when it is sent, asking for the arguments it lacks.
import type { SlashCommand } from '../src/protocol/webviewMessages';
import { attachSuggestionList } from './suggestionList';

export interface SlashCommandList {
  setCommands(commands: readonly SlashCommand[]): void;
}

export function attachSlashCommands(prompt: HTMLTextAreaElement): SlashCommandList {
  let commands: readonly SlashCommand[] = [];

  const matching = (): SlashCommand[] => {
    const match = /^\/(\S*)$/.exec(prompt.value);
    if (match === null) return [];
    const typed = (match[1] ?? '').toLowerCase();
    return commands.filter((each) => each.command.toLowerCase().startsWith(typed) || each.command.toLowerCase().includes(`.${typed}`));
  };

  const list = attachSuggestionList<SlashCommand>(prompt, {
    id: 'tandem-slash-commands',
    className: 'slash-commands',
    testid: 'slash-commands',
    ariaLabel: 'Slash commands',
    describe: (command) => ({
      className: 'slash-command',
      testid: 'slash-command',
      data: { command: command.command },
      label: `/${command.command}${command.arguments.length > 0 ? ` ${command.arguments.map((argument) => `${argument}=…`).join(' ')}` : ''}`,
      labelClassName: 'slash-command-name',
      ...(command.description ? { detail: command.description } : {}),
    }),
    onPick: (command) => {
      prompt.value = `/${command.command} `;
      prompt.dispatchEvent(new Event('input', { bubbles: true }));
    },
  });

  const refresh = (): void => {
    if (list.dismissed) list.close();
    else list.show(matching());
  };
  prompt.addEventListener('input', refresh);
  prompt.addEventListener('focus', refresh);
  return {
    setCommands: (next) => {
      commands = next;
      refresh();
    },
  };
}
