import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excerptLines, fixPrompt, MAX_EXCERPT_LINES, MAX_LINE_CHARS, MAX_PROBLEMS, type ReportedProblem } from '../../../src/host/fixPrompt';

const problem = (line: number, message: string, extra: Partial<ReportedProblem> = {}): ReportedProblem => ({ line, severity: 'error', message, ...extra });

describe('the Fix with Tandem message', () => {
  it('names each problem with who reports it, then quotes the lines around them as they are now', () => {
    const text = fixPrompt('src/app.ts', 'typescript', [problem(12, "Type 'string' is not assignable to type 'number'.", { source: 'ts', code: '2322' })], {
      first: 9,
      last: 15,
      text: 'a\nb\nc\nconst port: number = "80";\ne\nf\ng',
    });
    assert.equal(
      text,
      [
        'Fix this problem VS Code reports in src/app.ts:',
        "- line 12, error (ts 2322): Type 'string' is not assignable to type 'number'.",
        'Lines 9-15 as they are now:\n\n```typescript\na\nb\nc\nconst port: number = "80";\ne\nf\ng\n```',
      ].join('\n\n'),
    );
  });

  it('lists problems in line order, each on one line, at most ten, and fences code that holds backticks', () => {
    const many = Array.from({ length: MAX_PROBLEMS + 2 }, (_, index) => problem(20 - index, `problem ${20 - index}\n  more detail`, { severity: 'warning', source: 'eslint' }));
    const text = fixPrompt('lib/a.js', 'javascript', many, { first: 1, last: 1, text: 'const s = ```;' });
    const lines = text.split('\n').filter((line) => line.startsWith('- '));
    assert.equal(lines.length, MAX_PROBLEMS + 1);
    assert.equal(lines[0], '- line 9, warning (eslint): problem 9 more detail');
    assert.equal(lines.at(-1), '- and 2 more on these lines');
    assert.match(text, /^Fix these problems/);
    assert.match(text, /Line 1 as they are now:\n\n````javascript\nconst s = ```;\n````$/);
  });

  it('quotes a few lines around the problems, within the file and the cap', () => {
    assert.deepEqual(excerptLines([problem(2, 'x')], 100), { first: 1, last: 5 });
    assert.deepEqual(excerptLines([problem(50, 'x'), problem(40, 'y')], 51), { first: 37, last: 51 });
    assert.deepEqual(excerptLines([problem(10, 'x'), problem(500, 'y')], 1000), { first: 7, last: 7 + MAX_EXCERPT_LINES - 1 });
  });

  it("quotes the file's last lines for a stale problem past its end, never a backwards range", () => {
    // Reported on line 20, then the file was cut to 5 lines: once "Lines 17-5".
    assert.deepEqual(excerptLines([problem(20, 'x')], 5), { first: 2, last: 5 });
    assert.deepEqual(excerptLines([problem(2, 'x'), problem(20, 'y')], 5), { first: 1, last: 5 });
    assert.deepEqual(excerptLines([problem(9, 'x')], 1), { first: 1, last: 1 });
    for (const lineCount of [1, 2, 5, 30]) {
      for (const line of [1, 3, 10, 40, 200]) {
        const { first, last } = excerptLines([problem(line, 'x')], lineCount);
        assert.ok(first >= 1 && first <= last && last <= lineCount, `line ${line} of ${lineCount}: ${first}-${last}`);
      }
    }
  });

  it("cuts a minified file's long line, saying how much was left out", () => {
    const text = fixPrompt('dist/app.min.js', 'javascript', [problem(1, 'Unexpected token')], { first: 1, last: 1, text: 'x'.repeat(MAX_LINE_CHARS + 1234) });
    assert.match(text, new RegExp(`\\n${'x'.repeat(MAX_LINE_CHARS)} … \\(1,234 more characters on this line\\)\\n\`\`\`$`));
  });
});
