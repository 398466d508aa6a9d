// Modal dialogs in code-server are DOM in the workbench: this answers each one
// as it appears, the way a person would, and records what it showed.
import type { Locator, Page } from 'playwright-core';

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

/** Whether the keyboard is inside the dialog (the dialog focuses its default button once shown). */
async function dialogHasFocus(dialog: Locator): Promise<boolean> {
  return dialog.evaluate((box) => box.contains(box.ownerDocument.activeElement)).catch(() => false);
}

/**
 * Presses Enter once the dialog holds the keyboard. Under load the dialog can
 * be drawn before it takes focus; an Enter pressed then goes to whatever had
 * the keyboard (the panel's prompt) and the dialog stays.
 */
async function pressEnterIn(page: Page, dialog: Locator): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await dialogHasFocus(dialog)) && Date.now() < deadline) await page.waitForTimeout(50);
  await page.keyboard.press('Enter');
}

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
        // VS Code builds each dialog anew, so this element going away is this
        // dialog answered; one still there is answered again, not recorded twice.
        const element = await dialog.elementHandle().catch(() => null);
        for (let attempt = 0; attempt < 3; attempt++) {
          if (answer === PRESS_ENTER) await pressEnterIn(page, dialog);
          else await dialog.getByRole('button', { name: answer, exact: true }).click();
          const gone = await page
            .waitForFunction((box) => !box?.isConnected || (box as HTMLElement).offsetParent === null, element, { timeout: 5_000 })
            .then(() => true, () => false);
          if (gone) break;
        }
        await element?.dispose().catch(() => undefined);
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
