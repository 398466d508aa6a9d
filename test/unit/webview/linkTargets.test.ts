import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkTarget } from '../../../webview/linkTargets';

describe('where a link in the panel goes', () => {
  it('takes a relative or absolute path for a workspace file, with the line the model named', () => {
    assert.deepEqual(linkTarget('lib/application.js'), { kind: 'file', path: 'lib/application.js', line: undefined });
    assert.deepEqual(linkTarget('./lib/application.js#L12'), { kind: 'file', path: 'lib/application.js', line: 12 });
    assert.deepEqual(linkTarget('src/a.ts#L3-L9'), { kind: 'file', path: 'src/a.ts', line: 3 });
    assert.deepEqual(linkTarget('README.md:40'), { kind: 'file', path: 'README.md', line: 40 });
    assert.deepEqual(linkTarget('lib/view.js:7:3'), { kind: 'file', path: 'lib/view.js', line: 7 });
    assert.deepEqual(linkTarget('docs/My%20Notes.md'), { kind: 'file', path: 'docs/My Notes.md', line: undefined });
    assert.deepEqual(linkTarget('/home/me/repo/x.ts#12'), { kind: 'file', path: '/home/me/repo/x.ts', line: 12 });
    assert.deepEqual(linkTarget('file:///home/me/repo/a%20b.ts#L2'), { kind: 'file', path: '/home/me/repo/a b.ts', line: 2 });
    assert.deepEqual(linkTarget('C:/repo/x.ts'), { kind: 'file', path: 'C:/repo/x.ts', line: undefined });
  });

  it('leaves web links to VS Code and opens nothing for other schemes', () => {
    assert.deepEqual(linkTarget('https://example.com/docs'), { kind: 'web' });
    assert.deepEqual(linkTarget('mailto:ada@example.com'), { kind: 'web' });
    for (const href of ['command:workbench.action.terminal.new', 'vscode://file/etc/passwd', 'javascript:alert(1)', 'data:text/html,x', '//evil.example/x', '#section', '', 'file://server/share/x']) {
      assert.deepEqual(linkTarget(href), { kind: 'none' }, href);
    }
  });
});
