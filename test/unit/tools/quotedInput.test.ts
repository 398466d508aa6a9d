// A reply quotes the model's input back cut: a 200,000-character query or
// path must not come back whole in a "no match" or a refusal.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quotedInput } from '../../../src/tools/quotedInput';
import { putFile, withBothEngines } from './workspaceTestKit';

const LONG = `${'q'.repeat(200_000)}`;

describe('quotedInput', () => {
  it('quotes a short input whole and a long one cut, saying how long it was', () => {
    assert.equal(quotedInput('a "b"'), '"a \\"b\\""');
    const cut = quotedInput(LONG);
    assert.ok(cut.length < 260, String(cut.length));
    assert.match(cut, /^"q{200}…" \(200,000 characters\)$/u);
  });
});

describe('tool replies to a very long input', () => {
  const { engines } = withBothEngines('tandem-long-input-', (root) => {
    putFile(root, 'a.txt', 'hello\n');
  });

  it('stay short: search_text with no match, with filters, with a bad pattern; find_files; a refused path', async () => {
    for (const [engine, kit] of engines) {
      const replies = [
        await kit.run('search_text', { query: LONG }),
        await kit.run('search_text', { query: LONG, include: [`${'d'.repeat(3000)}/**`] }),
      ].map((result) => result.text);
      for (const call of [
        () => kit.run('search_text', { query: `(${LONG}`, isRegexp: true }),
        () => kit.run('find_files', { pattern: LONG.slice(0, 3000) }),
        () => kit.run('read_file', { path: `../${LONG.slice(0, 3000)}` }),
      ]) {
        replies.push(await call().then((result) => result.text, (error: Error) => error.message));
      }
      for (const reply of replies) assert.ok(reply.length < 1500, `${engine}: ${reply.length} characters: ${reply.slice(0, 300)}`);
      // V8 cannot compile a 200,000-character pattern, and Linux takes no argument over 128 KiB, so ripgrep falls back to it.
      const tooLarge = /^Error: The query "q{200}…" \(200,000 characters\) cannot be searched for: Regular expression too large\. Search/u;
      assert.match(replies[0]!, engine === 'javascript' || process.platform === 'linux' ? tooLarge : /^No matches for "q{200}…" \(200,000 characters\)\.$/u, engine);
    }
  });
});
