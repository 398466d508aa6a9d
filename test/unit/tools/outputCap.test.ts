import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeadTailBuffer } from '../../../src/tools/outputCap';

describe('HeadTailBuffer', () => {
  it('keeps head and tail in order, however the text comes in chunks', () => {
    const whole = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join('');
    for (const size of [1, 7, 64, whole.length]) {
      const buffer = new HeadTailBuffer(100);
      for (let at = 0; at < whole.length; at += size) buffer.append(whole.slice(at, at + size));
      const [head, tail] = buffer.toString().split(/\n\[\.\.\. \d+ characters of output not shown \.\.\.\]\n/u);
      assert.equal(head, whole.slice(0, 50), `chunks of ${size}`);
      assert.equal(tail, whole.slice(-50), `chunks of ${size}`);
    }
  });

  it('never cuts an emoji in two at either edge', () => {
    for (let offset = 0; offset < 4; offset++) {
      const text = `${'a'.repeat(offset)}${'😀'.repeat(100)}`;
      for (const size of [1, 3, text.length]) {
        const buffer = new HeadTailBuffer(21);
        for (let at = 0; at < text.length; at += size) buffer.append(text.slice(at, at + size));
        const shown = buffer.toString();
        assert.ok(wellFormed(shown), `offset ${offset}, chunks of ${size}: ${JSON.stringify(shown)}`);
        const dropped = Number(/(\d+) characters/u.exec(shown)?.[1]);
        const [head, tail] = shown.split(/\n\[\.\.\. \d+ characters of output not shown \.\.\.\]\n/u);
        assert.equal(head!.length + dropped + tail!.length, text.length, 'every character shown or counted');
      }
    }
  });
});

/** No lone surrogate (String.prototype.isWellFormed, which this project's TypeScript lib does not declare). */
function wellFormed(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') === text;
}
