// The panel's one way to make an element with a class and a text: the cards
// and the step view build their DOM from it, text always as textContent.

/** A new element; `text` goes in as text, never as markup. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A small native button with an icon or a sign and no text: its name is its aria-label. */
export function iconButton(testId: string, name: string, title: string, content: Node | string, onClick: () => void): HTMLButtonElement {
  const action = element('button', 'icon-action');
  action.type = 'button';
  action.dataset['testid'] = testId;
  action.setAttribute('aria-label', name);
  action.title = title;
  action.append(content);
  action.addEventListener('click', onClick);
  return action;
}
