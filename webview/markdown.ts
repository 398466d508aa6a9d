// Markdown for the answer box: marked renders (markdownBlocks.ts), DOMPurify sanitises (the model's
// text is untrusted), then each code block gets a copy button. Links open
// through VS Code (the host), never inside the webview.
import DOMPurify from 'dompurify';
const purifyOptions = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
};

/** Sanitised nodes for rendered (untrusted) HTML, with copy buttons on code blocks. */
export function safeFragment(html: string, onCopy: (text: string) => void): DocumentFragment {
  const fragment = DOMPurify.sanitize(html, { ...purifyOptions, RETURN_DOM_FRAGMENT: true });
  decorate(fragment, onCopy);
  return fragment;
}

function decorate(root: ParentNode, onCopy: (text: string) => void): void {
  for (const block of root.querySelectorAll('pre')) {
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
  for (const link of root.querySelectorAll('a')) {
    link.setAttribute('rel', 'noreferrer noopener');
  }
}
