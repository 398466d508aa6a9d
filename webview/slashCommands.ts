// Suggestions for the prompt box: while the text is `/` plus part of a
// command, the MCP prompts that match are listed above the box; a click (or
// Tab on the only match) completes the command. The host expands the command
// when it is sent, asking for the prompt's arguments.
import type { SlashCommand } from '../src/protocol/webviewMessages';

export interface SlashCommandList {
  setCommands(commands: readonly SlashCommand[]): void;
}

export function attachSlashCommands(prompt: HTMLTextAreaElement): SlashCommandList {
  let commands: readonly SlashCommand[] = [];
  const list = document.createElement('div');
  list.className = 'slash-commands';
  list.dataset['testid'] = 'slash-commands';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'MCP prompts');
  list.hidden = true;
  prompt.insertAdjacentElement('beforebegin', list);

  const matching = (): SlashCommand[] => {
    const match = /^\/(\S*)$/.exec(prompt.value);
    if (match === null) return [];
    const typed = (match[1] ?? '').toLowerCase();
    return commands.filter((each) => each.command.toLowerCase().startsWith(typed) || each.command.toLowerCase().includes(`.${typed}`));
  };
  const complete = (command: SlashCommand): void => {
    prompt.value = `/${command.command} `;
    prompt.dispatchEvent(new Event('input', { bubbles: true }));
    prompt.focus();
    refresh();
  };
  const refresh = (): void => {
    const shown = matching();
    list.hidden = shown.length === 0;
    list.replaceChildren(
      ...shown.map((command) => {
        const item = document.createElement('div');
        item.className = 'slash-command';
        item.dataset['testid'] = 'slash-command';
        item.dataset['command'] = command.command;
        item.setAttribute('role', 'option');
        const name = document.createElement('span');
        name.className = 'slash-command-name';
        name.textContent = `/${command.command}${command.arguments.length > 0 ? ` ${command.arguments.map((argument) => `${argument}=…`).join(' ')}` : ''}`;
        item.append(name);
        if (command.description) {
          const description = document.createElement('span');
          description.className = 'muted';
          description.textContent = ` ${command.description}`;
          item.append(description);
        }
        item.addEventListener('mousedown', (event) => event.preventDefault()); // keep the caret in the box
        item.addEventListener('click', () => complete(command));
        return item;
      }),
    );
  };
  prompt.addEventListener('input', refresh);
  prompt.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || list.hidden) return;
    const shown = matching();
    if (shown.length === 1 && shown[0] !== undefined) {
      event.preventDefault();
      complete(shown[0]);
    }
  });
  return {
    setCommands: (next) => {
      commands = next;
      refresh();
    },
  };
}
