import assert from 'node:assert/strict';
import { it } from 'node:test';
import { builtinCommands, expandBuiltinCommand } from '../../../src/agent/builtinCommands';

it('/init is listed, runs in Agent mode, and takes the words after it as one more instruction', () => {
  assert.deepEqual(builtinCommands().map((each) => each.command), ['init']);
  const plain = expandBuiltinCommand('/init');
  assert.equal(plain?.mode, 'agent');
  assert.match(plain!.text, /^Study this workspace and write an AGENTS\.md at its root/);
  assert.ok(!plain!.text.includes('Also:'));
  assert.match(expandBuiltinCommand('  /init  keep it under 40 lines ')!.text, /\n\nAlso: keep it under 40 lines$/);
  assert.equal(expandBuiltinCommand('/initialise'), undefined);
  assert.equal(expandBuiltinCommand('please /init'), undefined, 'only at the start');
});
