// A toolbar is one stop for Tab; the arrow keys (and Home, End) move between
// its buttons (WAI-ARIA's toolbar pattern). The button last moved to keeps
// the stop, so Tab comes back to where the user was.
//   `returnToFirst`: when focus leaves the toolbar, its stop goes back to the
//   first button (the approval card: Tab enters on Approve, never on the
//   lasting choice the user last arrowed to).
export function rovingFocus(toolbar: HTMLElement, items: readonly HTMLElement[], options: { returnToFirst?: boolean } = {}): void {
  let current = items[0];
  const settle = (target: HTMLElement | undefined) => {
    if (target === undefined) return;
    current = target;
    for (const item of items) item.tabIndex = item === current ? 0 : -1;
  };
  settle(current);
  if (options.returnToFirst) {
    toolbar.addEventListener('focusout', (event) => {
      if (!toolbar.contains(event.relatedTarget as Node | null)) settle(items[0]);
    });
  }
  toolbar.addEventListener('focusin', (event) => {
    const item = items.find((candidate) => candidate.contains(event.target as Node));
    if (item !== undefined && item !== current) settle(item);
  });
  toolbar.addEventListener('keydown', (event) => {
    const usable = items.filter((item) => !item.hasAttribute('disabled') && !item.hidden);
    const at = usable.findIndex((item) => item.contains(event.target as Node));
    if (at < 0) return;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? usable[(at + 1) % usable.length]
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? usable[(at - 1 + usable.length) % usable.length]
          : event.key === 'Home'
            ? usable[0]
            : event.key === 'End'
              ? usable.at(-1)
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    settle(next);
    next.focus();
  });
}
