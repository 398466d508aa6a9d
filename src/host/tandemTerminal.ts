// The name of the terminal run_command runs in (terminalCommandRunner.ts), and
// how the terminal history tells it from the user's terminals. No `vscode`
// import, so terminalHistory.ts loads in plain Node for its unit tests.

export const TERMINAL_NAME = 'Tandem';

/** "Tandem", or "Tandem: <folder>" in a workspace of several folders. */
export function isTandemTerminalName(name: string): boolean {
  return name === TERMINAL_NAME || name.startsWith(`${TERMINAL_NAME}: `);
}
