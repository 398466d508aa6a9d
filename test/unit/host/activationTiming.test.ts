import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moduleStart, ownActivationLine, parseOwnActivation } from '../../../src/host/activationTiming';

test('the own-share line adds module evaluation and activate(), and the bench parses it back', () => {
  const line = ownActivationLine(moduleStart + 3.25, moduleStart + 10, moduleStart + 11.5);
  assert.equal(line, 'Activated: own share 4.8 ms (module 3.3 ms + activate() 1.5 ms)');
  const log = `2026-01-01 10:00:00.000 [info] ${line}\n2026-01-01 10:00:01.000 [info] other\n[info] Activated: own share 12.0 ms (module 9.0 ms + activate() 3.0 ms)`;
  assert.deepEqual(parseOwnActivation(log), [4.8, 12]);
  assert.deepEqual(parseOwnActivation('nothing here'), []);
});
