import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { findExtensionHost, processCpuMs } from '../../../bench/panel/extensionHostCpu';
import { panelFigures, percentile } from '../../../bench/panel/panelProbe';
import { markersIn, streamedAnswer } from '../../../bench/panel/streamedAnswer';
import { splitTokens } from '../../../test/fixtures/scriptedModelReplies';

describe('panel benchmark', () => {
  it('reads a process\'s CPU from /proc and finds a process started as an extension host', { skip: process.platform !== 'linux' }, async () => {
    const before = processCpuMs(process.pid)!;
    const until = Date.now() + 120;
    while (Date.now() < until) Math.sqrt(Math.random());
    assert.ok(processCpuMs(process.pid)! >= before + 50, 'busy for 120 ms counts');
    // A stand-in whose command line carries the flag VS Code gives its extension host.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)', '--', '--type=extensionHost'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      assert.equal(findExtensionHost(), child.pid);
      assert.equal(processCpuMs(-1), undefined);
    } finally {
      child.kill();
    }
  });

  it('streams an answer of the asked size whose markers are numbered in order, each on a known token', () => {
    const answer = streamedAnswer(3_000);
    const tokens = splitTokens(answer.content);
    assert.equal(answer.tokens, tokens.length);
    assert.ok(answer.tokens >= 3_000 && answer.tokens < 3_200);
    assert.deepEqual(markersIn(answer.content), answer.markerToken.map((_, index) => index));
    answer.markerToken.forEach((token, marker) => assert.match(tokens[token]!, new RegExp(`t${marker}\\b`)));
    for (const syntax of ['## ', '\n- ', '```ts\n', '| --- |', '**', '`t']) assert.ok(answer.content.includes(syntax), syntax);
  });

  it('times each marker from its send to the first DOM change that shows it', () => {
    const sentAt = [0, 10, 20, 30];
    // Markers 0-1 shown at 5, 2-3 at 40.
    const figures = panelFigures({ arrivals: [5, 1, 40, 3], messages: [], frames: [], longTasks: [60, 80], answerText: '' }, sentAt, true);
    assert.equal(figures.tokenToDomP50Ms, 10); // latencies 5, -5, 20, 10
    assert.equal(figures.tokenToDomP99Ms, 20);
    assert.equal(figures.tokensPerSecond, Math.round((3 * 1000) / 35));
    assert.equal(figures.complete, true);
    assert.equal(figures.longTasks, 2);
    assert.equal(figures.longestTaskMs, 80);
  });

  it('counts tokens without a marker (list bullets, table pipes) toward the rate', () => {
    const figures = panelFigures({ arrivals: [5, 1, 40, 3], messages: [], frames: [], longTasks: [], answerText: '' }, [0, 10, 20, 30], true, [0, 2, 4, 6]);
    assert.equal(figures.tokensPerSecond, Math.round((6 * 1000) / 35));
  });

  it('is not complete when a marker never showed', () => {
    const figures = panelFigures({ arrivals: [5, 1], messages: [], frames: [], longTasks: [], answerText: '' }, [0, 1, 2], true);
    assert.equal(figures.complete, false);
    assert.equal(percentile([], 0.5), Number.NaN);
  });
});
