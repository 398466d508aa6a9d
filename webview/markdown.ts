// Markdown for the answer box: marked renders (markdownBlocks.ts), DOMPurify sanitises (the model's
// text is untrusted), then each code block gets Copy and Insert buttons. Links
// open through VS Code (the host), never inside the webview.
import DOMPurify from 'dompurify';
const purifyOptions = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
};

/** What a code block's buttons do with its text. */
export interface CodeBlockActions {
  readonly copy: (text: string) => void;
  /** Puts the code in the editor at its cursor; `language` from the fence (absent: no Insert button). */
  readonly insert?: ((text: string, language: string | undefined) => void) | undefined;
}

/** Sanitised nodes for rendered (untrusted) HTML, with Copy (and Insert) buttons on code blocks. */
export function safeFragment(html: string, actions: CodeBlockActions): DocumentFragment {
  const fragment = DOMPurify.sanitize(html, { ...purifyOptions, RETURN_DOM_FRAGMENT: true });
  decorate(fragment, actions);
  return fragment;
}

function codeButton(className: string, label: string, ariaLabel: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `code-action ${className}`;
  button.textContent = label;
  button.setAttribute('aria-label', ariaLabel);
  return button;
}

function decorate(root: ParentNode, actions: CodeBlockActions): void {
  // Each code block gets a header row (its language, Copy, Insert) above it: beside the code, the buttons took
  // its width in a narrow sidebar and wrapped lines inside words.
  for (const block of [...root.querySelectorAll('pre')]) {
    const code = () => block.querySelector('code')?.textContent ?? block.textContent ?? '';
    // marked writes the fence's language as `language-<name>` (the sanitiser keeps the class).
    const language = /(?:^|\s)language-([\w+#.-]+)/u.exec(block.querySelector('code')?.className ?? '')?.[1];
    const header = document.createElement('div');
    header.className = 'code-header';
    const label = document.createElement('span');
    label.className = 'code-language';
    label.textContent = language ?? '';
    header.append(label);
    const copy = codeButton('copy-code', 'Copy', 'Copy code');
    copy.addEventListener('click', () => {
      actions.copy(code());
      copy.textContent = 'Copied';
      setTimeout(() => (copy.textContent = 'Copy'), 1200);
    });
    header.append(copy);
    const insert = actions.insert;
    if (insert) {
      const button = codeButton('insert-code', 'Insert', 'Insert code at the cursor in the editor');
      button.title = 'Insert at the cursor in the editor (replaces the selection)';
      // The block's last line end is the fence's, not the code's: inserted mid-line it would split the line.
      button.addEventListener('click', () => insert(code().replace(/\r?\n$/u, ''), language));
      header.append(button);
    }
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    block.replaceWith(wrapper);
    wrapper.append(header, block);
  }
  for (const link of root.querySelectorAll('a')) {
    link.setAttribute('rel', 'noreferrer noopener');
  }
  // Each paragraph of right-to-left text (Arabic, Hebrew) reads from its own side, as in VS Code's chat.
  for (const block of root.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, blockquote, td, th')) block.setAttribute('dir', 'auto');
}
