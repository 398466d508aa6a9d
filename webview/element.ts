// The panel's one way to make an element with a class and a text: the cards
// and the step view build their DOM from it, text always as textContent.

/** A new element; `text` goes in as text, never as markup. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
