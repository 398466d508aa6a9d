import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Marked } from 'marked';
import { MarkdownBlockSplitter } from '../../../webview/markdownBlocks';
import { streamedAnswer } from '../../../bench/panel/streamedAnswer';
import { splitTokens } from '../../../test/fixtures/scriptedModelReplies';

const full = new Marked({ gfm: true, breaks: false, async: false });

// Many block kinds side by side, including the ones that grow backwards
// (setext headings, tables, lazy continuation, loose lists).
const corpus = [
  '# Title\n\nA paragraph with *emphasis*, **strong**, `code` and a [link](https://example.com).\nIt goes on a second line.\n',
  'Setext heading\n==============\n\nAnother one\n---\n\n',
  '- one\n- two\n  - nested\n- three\n\n',
  '1. first\n\n2. second (a loose list)\n\n3. third\n\nAfter the list.\n',
  '```ts\nconst x = 1;\n\nfunction f() {\n  return x;\n}\n```\n\n',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\n',
  '> quoted\nlazy continuation\n\n> second quote\n\n',
  '---\n\n    indented code\n    more\n\nText after <b>html</b> and https://auto.link/path.\n\n',
  '<div class="x">\nblock html\n</div>\n\n',
  // Fences whose insides look like other blocks, a longer fence holding a shorter one, a tilde fence.
  '```md\n# not a heading\n\n- not a list\n\n| not | a table |\n|---|---|\n```\n\n',
  '````\n```\ninner fence\n```\n````\n\n~~~py\nprint("```")\n~~~\n\n',
  '- item with code:\n\n  ```\n  inside the item\n  ```\n- next item\n\n',
  '| long | table |\n| --- | --- |\n' + Array.from({ length: 12 }, (_, row) => `| ${row} | cell ${row} |\n`).join('') + '\n',
  'Line with trailing spaces  \nbreak.\n\n~~~\nunterminated fence at the end',
];
const document = corpus.join('');

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function streamAndCompare(text: string, random: () => number, maxChunk: number): void {
  const splitter = new MarkdownBlockSplitter();
  let finished: string[] = [];
  let offset = 0;
  while (offset < text.length) {
    offset = Math.min(text.length, offset + 1 + Math.floor(random() * maxChunk));
    const prefix = text.slice(0, offset);
    const update = splitter.update(prefix);
    if (update.reset) finished = [];
    finished.push(...update.finished);
    const shown = finished.join('') + update.tail.join('');
    assert.equal(shown, full.parse(prefix), `differs after ${offset} characters: ${JSON.stringify(prefix.slice(-40))}`);
  }
}

/** The same as streamAndCompare, through `append` (only the new text each time), as the panel streams. */
function appendAndCompare(text: string, random: () => number, maxChunk: number): void {
  const splitter = new MarkdownBlockSplitter();
  let finished: string[] = [];
  let offset = 0;
  while (offset < text.length) {
    const next = Math.min(text.length, offset + 1 + Math.floor(random() * maxChunk));
    const update = splitter.append(text.slice(offset, next));
    offset = next;
    if (update.reset) finished = [];
    finished.push(...update.finished);
    const prefix = text.slice(0, offset);
    assert.equal(finished.join('') + update.tail.join(''), full.parse(prefix), `differs after ${offset} characters: ${JSON.stringify(prefix.slice(-40))}`);
  }
}

describe('incremental Markdown blocks', () => {
  it('shows a task list\'s boxes as characters that say whether each task is done (the sanitiser drops inputs)', () => {
    const update = new MarkdownBlockSplitter().update('- [x] shipped\n- [ ] open\n\nAfter.\n');
    const html = [...update.finished, ...update.tail].join('');
    assert.match(html, /<li><span class="task-box" role="img" aria-label="done">☑<\/span> shipped<\/li>/);
    assert.match(html, /<li><span class="task-box" role="img" aria-label="not done">☐<\/span> open<\/li>/);
    assert.doesNotMatch(html, /<input/);
  });

  it('renders the same HTML as a full render for random splits of the corpus', () => {
    for (let seed = 1; seed <= 40; seed++) streamAndCompare(document, seededRandom(seed), seed % 2 ? 5 : 40);
  });

  it('renders the same HTML one character at a time', () => {
    streamAndCompare(document, () => 0, 1);
  });

  it('each corpus piece alone, streamed by characters', () => {
    for (const piece of corpus) streamAndCompare(piece, () => 0, 1);
  });

  it('re-lexes only the live tail however long the answer grows', () => {
    const splitter = new MarkdownBlockSplitter();
    let text = '';
    let largest = 0;
    for (let paragraph = 0; paragraph < 2000; paragraph++) {
      text += `Paragraph ${paragraph} with some words in it.\n\n`;
      splitter.update(text);
      largest = Math.max(largest, splitter.pendingLength);
    }
    assert.ok(text.length > 60_000);
    assert.ok(largest < 200, `lexed ${largest} characters in one update`);
  });

  it('the benchmark answer (headings, paragraphs, lists, code, tables) streamed token by token equals a full render, lexing only the tail', () => {
    const answer = streamedAnswer(3_000).content;
    const splitter = new MarkdownBlockSplitter();
    let finished: string[] = [];
    let text = '';
    let largest = 0;
    for (const token of splitTokens(answer)) {
      text += token;
      const update = splitter.update(text);
      if (update.reset) finished = [];
      finished.push(...update.finished);
      largest = Math.max(largest, splitter.pendingLength);
    }
    const update = splitter.update(text);
    assert.equal(finished.join('') + update.finished.join('') + update.tail.join(''), full.parse(answer));
    assert.ok(largest < 1_000, `lexed ${largest} of ${answer.length} characters in one update`);
  });

  it('starts over when the text is not a continuation, and stays right', () => {
    const splitter = new MarkdownBlockSplitter();
    splitter.update('First paragraph.\n\nSecond.');
    const update = splitter.update('Other text.\n\nMore.');
    assert.equal(update.reset, true);
    assert.equal(update.finished.join('') + update.tail.join(''), full.parse('Other text.\n\nMore.'));
  });

  it('falls back to whole renders once a reference definition appears (it changes earlier blocks)', () => {
    const text = 'See [the docs][d].\n\nMore text.\n\n[d]: https://example.com/docs\n\nEnd.';
    streamAndCompare(text, () => 0, 1);
    const splitter = new MarkdownBlockSplitter();
    splitter.update(text.slice(0, 30));
    const update = splitter.update(text);
    assert.equal(update.reset, true);
    assert.match(update.tail.join(''), /href="https:\/\/example.com\/docs"/);
  });

  it('carriage returns render like a full render', () => {
    streamAndCompare('a\r\nb\r\n\r\n- x\r\n- y\r\n', () => 0, 1);
  });

  it('appending only the new text renders the same as a full render (random splits, one character at a time, CR LF split between appends)', () => {
    for (let seed = 1; seed <= 40; seed++) appendAndCompare(document, seededRandom(seed), seed % 2 ? 5 : 40);
    appendAndCompare(document, () => 0, 1);
    for (const piece of corpus) appendAndCompare(piece, () => 0, 1);
    appendAndCompare('a\r\nb\r\n\r\n- x\r\n- y\r\n\rz', () => 0, 1);
    appendAndCompare('See [the docs][d].\n\nMore text.\n\n[d]: https://example.com/docs\n\nEnd.', () => 0, 1);
  });

  it('append and update mix: a whole text that continues what was appended only adds its end', () => {
    const splitter = new MarkdownBlockSplitter();
    const finished: string[] = [];
    for (const piece of ['First para', 'graph.\r', '\n\r\nSecond', ' one.\n\n']) finished.push(...splitter.append(piece).finished);
    const update = splitter.update('First paragraph.\r\n\r\nSecond one.\n\nThird.');
    assert.equal(update.reset, false);
    finished.push(...update.finished);
    assert.equal(finished.join('') + update.tail.join(''), full.parse('First paragraph.\n\nSecond one.\n\nThird.'));
  });

  it('appending the benchmark answer token by token lexes only the tail', () => {
    const answer = streamedAnswer(3_000).content;
    const splitter = new MarkdownBlockSplitter();
    let finished: string[] = [];
    let largest = 0;
    let tail: readonly string[] = [];
    for (const token of splitTokens(answer)) {
      const update = splitter.append(token);
      if (update.reset) finished = [];
      finished.push(...update.finished);
      tail = update.tail;
      largest = Math.max(largest, splitter.pendingLength);
    }
    assert.equal(finished.join('') + tail.join(''), full.parse(answer));
    assert.ok(largest < 1_000, `lexed ${largest} of ${answer.length} characters in one update`);
  });
});
