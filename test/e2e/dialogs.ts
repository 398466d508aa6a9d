// Modal dialogs in code-server are DOM in the workbench: this answers each one
// as it appears, the way a person would, and records what it showed.
import type { Page } from 'playwright-core';

export interface SeenDialog {
  readonly message: string;
  readonly detail: string;
  /** The labels of its buttons, in order. */
  readonly buttons: readonly string[];
  readonly answer: string;
}

export interface DialogAnswerer {
  readonly seen: SeenDialog[];
  stop(): Promise<void>;
}

/** What `choose` returns to press Enter rather than click: the dialog's default button answers. */
export const PRESS_ENTER = '(Enter)';

/** Answers every modal dialog with the button `choose` names (exact label) until stopped. */
export function answerDialogs(page: Page, choose: (message: string, detail: string) => string): DialogAnswerer {
  const seen: SeenDialog[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const dialog = page.locator('.monaco-dialog-box').first();
      if (await dialog.isVisible().catch(() => false)) {
        const message = (await dialog.locator('.dialog-message-text').innerText().catch(() => '')).trim();
        const detail = (await dialog.locator('.dialog-message-detail').innerText().catch(() => '')).trim();
        const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts().catch(() => [])).map((label) => label.trim());
        const answer = choose(message, detail);
        seen.push({ message, detail, buttons, answer });
        if (answer === PRESS_ENTER) await page.keyboard.press('Enter');
        else await dialog.getByRole('button', { name: answer, exact: true }).click();
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
      }
      await page.waitForTimeout(100);
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
