// Modal dialogs in code-server are DOM in the workbench: this answers each one
// as it appears, the way a person would, and records what it showed.
import type { ElementHandle, Page } from 'playwright-core';

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

/** Whether the keyboard is inside this dialog (a dialog focuses its default button once shown). */
async function hasFocus(element: ElementHandle): Promise<boolean> {
  return element.evaluate((box) => box.contains(box.ownerDocument?.activeElement ?? null)).catch(() => false);
}

/**
 * Presses Enter once this dialog holds the keyboard; false if it never took it.
 * Under load a dialog can be drawn before it takes focus, and an Enter pressed
 * then goes to whatever had the keyboard (the panel's prompt), not the dialog.
 */
async function pressEnterIn(page: Page, element: ElementHandle): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (!(await hasFocus(element))) {
    if (Date.now() > deadline) return false;
    await page.waitForTimeout(50);
  }
  await page.keyboard.press('Enter');
  return true;
}

/** Clicks this dialog's button with exactly this label. */
async function clickIn(element: ElementHandle, label: string): Promise<void> {
  for (const candidate of await element.$$('.dialog-buttons .monaco-button')) {
    if ((await candidate.innerText()).trim() === label) return candidate.click();
  }
  throw new NoSuchButton(`the dialog has no button "${label}"`);
}

class NoSuchButton extends Error {}

/**
 * Answers every modal dialog with the button `choose` names (exact label) until
 * stopped; `shown` runs first on each (a screenshot of what the user sees).
 */
export function answerDialogs(page: Page, choose: (message: string, detail: string) => string, shown?: (dialog: SeenDialog, index: number) => Promise<unknown>): DialogAnswerer {
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
        await shown?.(seen.at(-1)!, seen.length).catch(() => undefined);
        // VS Code builds each dialog anew: this element going away is this dialog
        // answered. One still there is answered again, not recorded twice; every
        // attempt acts on this element, never on a dialog queued behind it.
        const element = await dialog.elementHandle().catch(() => null);
        for (let attempt = 0; element && attempt < 3; attempt++) {
          try {
            if (answer === PRESS_ENTER) await pressEnterIn(page, element);
            else await clickIn(element, answer);
          } catch (error) {
            // A label the dialog does not have is the test's mistake: say so rather than time out elsewhere.
            if (error instanceof NoSuchButton) throw error;
            // Otherwise it was closing as it was answered; the check below says whether it went.
          }
          const gone = await page
            .waitForFunction((box) => !box.isConnected || (box as HTMLElement).offsetParent === null, element, { timeout: 5_000 })
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
