import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeLoadingLine, extensionHostMarks, loadedJustBefore, moduleLoads, moduleStart, ownActivationLine, parseCodeLoading, parseOwnActivation, type PerformanceMark } from '../../../src/host/activationTiming';

test('the own-share line adds module evaluation and activate(), and the bench parses it back', () => {
  // Durations away from a rounding edge: moduleStart is a timestamp, so (moduleStart + x) - moduleStart is x only to within 1e-12.
  const line = ownActivationLine(moduleStart + 3.3, moduleStart + 10, moduleStart + 11.5);
  assert.equal(line, 'Activated: own share 4.8 ms (module 3.3 ms + activate() 1.5 ms)');
  const log = `2026-01-01 10:00:00.000 [info] ${line}\n2026-01-01 10:00:01.000 [info] other\n[info] Activated: own share 12.0 ms (module 9.0 ms + activate() 3.0 ms)`;
  assert.deepEqual(parseOwnActivation(log), [
    { ownMs: 4.8, moduleMs: 3.3, activateMs: 1.5 },
    { ownMs: 12, moduleMs: 9, activateMs: 3 },
  ]);
  assert.deepEqual(parseOwnActivation('nothing here'), []);
});

// The marks of a real code-server 1.100 extension host (an onStartupFinished pass: two
// builtins, then Tandem), shortened; times are Date.now() ms.
const passMarks: PerformanceMark[] = [
  { name: 'code/extHost/willLoadExtensionCode/vscode.git', startTime: 1000 },
  { name: 'code/extHost/didLoadExtensionCode/vscode.git', startTime: 1056 },
  { name: 'code/extHost/willActivateExtension/vscode.git', startTime: 1100 },
  { name: 'code/extHost/willLoadExtensionCode/vscode.debug-auto-launch', startTime: 1200 },
  { name: 'code/extHost/didLoadExtensionCode/vscode.debug-auto-launch', startTime: 1202 },
  { name: 'code/extHost/willLoadExtensionCode/vscode.merge-conflict', startTime: 1202 },
  { name: 'code/extHost/didLoadExtensionCode/vscode.merge-conflict', startTime: 1227 },
  { name: 'code/extHost/willLoadExtensionCode/tandem-dev.tandem', startTime: 1228 },
  { name: 'code/extHost/didLoadExtensionCode/tandem-dev.tandem', startTime: 1232 },
];

test('the modules loaded back to back before Tandem are the rest of its pass, not an earlier load', () => {
  const loads = moduleLoads(passMarks);
  assert.deepEqual(loads.map((load) => load.id), ['vscode.git', 'vscode.debug-auto-launch', 'vscode.merge-conflict', 'tandem-dev.tandem']);
  const before = loadedJustBefore(loads, 'tandem-dev.tandem');
  assert.deepEqual(before.map((load) => [load.id, load.endMs - load.startMs]), [['vscode.debug-auto-launch', 2], ['vscode.merge-conflict', 25]]);
  const line = codeLoadingLine(loads, 'tandem-dev.tandem');
  assert.equal(line, 'Code loading: 27 ms loaded right before it, back to back (vscode.debug-auto-launch 2 ms, vscode.merge-conflict 25 ms); its own require() 4 ms');
  const alone = [{ id: 'tandem-dev.tandem', startMs: 5, endMs: 11 }];
  assert.equal(codeLoadingLine(alone, 'tandem-dev.tandem'), 'Code loading: 0 ms loaded right before it, back to back; its own require() 6 ms');
  assert.deepEqual(parseCodeLoading(`[info] ${line}\n[info] ${codeLoadingLine(alone, 'tandem-dev.tandem')}`), [
    { beforeMs: 27, ownRequireMs: 4 },
    { beforeMs: 0, ownRequireMs: 6 },
  ]);
});

test('a load after a quiet moment has nothing before it; no marks is said plainly', () => {
  const alone = [...passMarks.slice(0, 3), { name: 'code/extHost/willLoadExtensionCode/tandem-dev.tandem', startTime: 1300 }, { name: 'code/extHost/didLoadExtensionCode/tandem-dev.tandem', startTime: 1304 }];
  assert.deepEqual(loadedJustBefore(moduleLoads(alone), 'tandem-dev.tandem'), []);
  assert.deepEqual(loadedJustBefore(moduleLoads(passMarks), 'someone.else'), []);
  assert.match(codeLoadingLine(undefined, 'tandem-dev.tandem'), /unknown/);
  assert.match(codeLoadingLine(moduleLoads(passMarks), 'someone.else'), /unknown/);
  assert.deepEqual(parseCodeLoading(codeLoadingLine(undefined, 'tandem-dev.tandem')), []);
});

test('the extension host marks are read only when VS Code keeps them, and only well-formed ones', () => {
  const global = globalThis as { MonacoPerformanceMarks?: unknown };
  const saved = global.MonacoPerformanceMarks;
  try {
    delete global.MonacoPerformanceMarks;
    assert.equal(extensionHostMarks(), undefined);
    global.MonacoPerformanceMarks = { getMarks: () => [{ name: 'code/timeOrigin', startTime: 5 }, { name: 7 }, null] };
    assert.deepEqual(extensionHostMarks(), [{ name: 'code/timeOrigin', startTime: 5 }]);
    global.MonacoPerformanceMarks = { getMarks: () => { throw new Error('gone'); } };
    assert.equal(extensionHostMarks(), undefined);
  } finally {
    global.MonacoPerformanceMarks = saved;
  }
});
