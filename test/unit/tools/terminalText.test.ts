// What a terminal prints, made plain for the model: colours, cursor moves and
// shell-integration marks go; CR-rewritten lines keep their last state; a
// sequence split across chunks is still recognised.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RawHeadTail, stripTerminalEscapes, TerminalTextCleaner } from '../../../src/tools/terminalText';

describe('terminal text', () => {
  it('drops colours and cursor movement', () => {
    assert.equal(stripTerminalEscapes('\u001b[1;31merror\u001b[0m: bad\u001b[K\r\n'), 'error: bad\n');
    assert.equal(stripTerminalEscapes('\u001b[?25lhidden cursor\u001b[?25h'), 'hidden cursor');
    assert.equal(stripTerminalEscapes('\u001b(Bcharset\u001b='), 'charset');
  });

  it('drops OSC strings ended by BEL or ST (titles, shell-integration marks, links)', () => {
    const marked = '\u001b]633;C\u0007hello\r\n\u001b]633;D;0\u001b\\\u001b]0;title\u0007\u001b]8;;https://x.invalid\u0007link\u001b]8;;\u0007';
    assert.equal(stripTerminalEscapes(marked), 'hello\nlink');
  });

  it('keeps the last state of a line rewritten with CR, and applies backspaces', () => {
    assert.equal(stripTerminalEscapes('progress 10%\rprogress 50%\rprogress 100%\r\ndone\n'), 'progress 100%\ndone\n');
    assert.equal(stripTerminalEscapes('abd\bc\n'), 'abc\n');
  });

  it('waits for the rest of a sequence split across chunks', () => {
    const cleaner = new TerminalTextCleaner();
    const chunks = ['one\u001b', '[3', '2mtwo\u001b]633;', 'P;Cwd=/tmp', '\u0007three\n', 'four'];
    const text = chunks.map((chunk) => cleaner.push(chunk)).join('') + cleaner.flush();
    assert.equal(text, 'onetwothree\nfour');
  });

  it('keeps tabs and unicode text, drops other control characters', () => {
    assert.equal(stripTerminalEscapes('a\tb \u00e9\u4e2d\u0007\u0000\n'), 'a\tb \u00e9\u4e2d\n');
  });

  it('gives up on an OSC string that never ends instead of holding everything', () => {
    const cleaner = new TerminalTextCleaner();
    const text = cleaner.push(`\u001b]0;${'x'.repeat(5000)}`) + cleaner.push('after\n') + cleaner.flush();
    assert.equal(text, 'after\n');
  });

  it('hands on a line that never ends instead of holding it all', () => {
    const cleaner = new TerminalTextCleaner();
    const handed = cleaner.push('x'.repeat(200_000));
    assert.ok(handed.length >= 196_608, `${handed.length} characters handed on`);
    assert.equal(handed + cleaner.push('y\n') + cleaner.flush(), `${'x'.repeat(200_000)}y\n`);
  });

  it('a terminal stream keeps its head and tail raw and cleans them when read; one mark says how much was left out', () => {
    const short = new RawHeadTail();
    short.append('\u001b[3');
    short.append('2mgreen\u001b[0m done\r\n');
    assert.equal(short.cleaned(16_000), 'green done\n', 'a sequence split across chunks stays whole');

    const long = new RawHeadTail();
    long.append('FIRST LINE\n');
    let written = 'FIRST LINE\n'.length;
    for (let index = 0; index < 20_000; index++) {
      const line = `line ${index}\n`;
      long.append(`\u001b[2m${line}\u001b[0m`);
      written += line.length;
    }
    long.append('LAST LINE\n');
    written += 'LAST LINE\n'.length;
    const text = long.cleaned(16_000);
    assert.ok(text.startsWith('FIRST LINE\nline 0\n'), text.slice(0, 40));
    assert.ok(text.endsWith('line 19999\nLAST LINE\n'), text.slice(-40));
    assert.ok(text.length <= 16_000, `${text.length} characters: within the item's cap, so nothing cuts it again`);
    assert.doesNotMatch(text, /\u001b|\[2m/, 'no escape sequence, nor the rest of one cut in the middle');
    const marks = [...text.matchAll(/\n\[… (\d+) characters omitted …\]\n/gu)];
    assert.equal(marks.length, 1);
    const omitted = Number(marks[0]![1]);
    // Counted in raw characters (colour codes included): at least what the clean text lost.
    assert.ok(omitted >= written - (text.length - marks[0]![0].length), `${omitted} omitted of ${written}`);

    const huge = new RawHeadTail();
    huge.append('x'.repeat(5_000_000));
    assert.ok(huge.cleaned(16_000).length <= 16_000, 'one huge chunk is not kept whole');
  });
});
