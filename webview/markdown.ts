// Markdown for the answer box: marked renders, DOMPurify sanitises (the model's
// text is untrusted), then each code block gets a copy button. Links open
// through VS Code (the host), never inside the webview.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Sanitised HTML for a Markdown string. */
export function markdownToSafeHtml(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** Renders `markdown` into `target`, adding copy buttons to code blocks. */
export function renderMarkdown(target: HTMLElement, markdown: string, onCopy: (text: string) => void): void {
  target.innerHTML = markdownToSafeHtml(markdown);
  for (const block of target.querySelectorAll('pre')) {
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy-code';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', 'Copy code');
    copy.addEventListener('click', () => {
      onCopy(block.querySelector('code')?.textContent ?? block.textContent ?? '');
      copy.textContent = 'Copied';
      setTimeout(() => (copy.textContent = 'Copy'), 1200);
    });
    block.classList.add('has-copy');
    block.prepend(copy);
  }
  for (const link of target.querySelectorAll('a')) {
    link.setAttribute('rel', 'noreferrer noopener');
  }
}
