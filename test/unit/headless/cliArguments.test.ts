// The headless command line: every fault is named before anything starts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseArguments } from '../../../src/headless/cliArguments';

it('reads every option, in both --flag value and --flag=value forms', () => {
  assert.deepEqual(parseArguments(['--folder', 'work', '--port=8123', '--settings', 's.json', '--token', 'abcdefghijklmnop', '--allow-mcp', '--approve=none']), {
    folder: 'work',
    port: 8123,
    settingsFile: 's.json',
    token: 'abcdefghijklmnop',
    allowMcp: true,
    approve: 'none',
  });
  assert.deepEqual(parseArguments(['--folder', '.']), { folder: '.', port: undefined, settingsFile: undefined, token: undefined, allowMcp: false, approve: undefined });
});

it('names the fault of a bad command line', () => {
  const fault = (argv: string[]) => {
    try {
      parseArguments(argv);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  assert.match(fault([]), /--folder is required/);
  assert.match(fault(['--folder']), /--folder needs a value/);
  assert.match(fault(['--folder', 'x', '--port', '70000']), /--port must be an integer 0\.\.65535/);
  assert.match(fault(['--folder', 'x', '--port', 'eighty']), /--port must be an integer/);
  assert.match(fault(['--folder', 'x', '--token', 'short']), /--token must be at least 16 printable characters/);
  assert.match(fault(['--folder', 'x', '--token', 'has a space in it ok']), /--token must be/);
  assert.match(fault(['--folder', 'x', '--approve', 'sometimes']), /--approve must be readOnly, all or none/);
  assert.match(fault(['--folder', 'x', '--verbose']), /unknown argument "--verbose"/);
});
