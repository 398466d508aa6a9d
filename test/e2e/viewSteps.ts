// Steps the e2e files share: polling for a condition, sending a question from
// the panel's prompt box, picking an @ item, waiting for a run to end, and keeping a screenshot
// and the logs of a failed test.
import type { Frame, Locator } from 'playwright-core';
import { openTandemWebview, type VsCodeSession } from './harness';

/** Polls until `check` holds; generous by default, since CI machines are slow and only a failure waits that long. */
export async function waitFor(check: () => Promise<boolean> | boolean, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out after ${limitMs / 1000} s waiting for ${what}`);
}

/**
 * Types a question into the prompt box, sends it with Enter and waits for it
 * to show as the user's message: from then on the panel counts the run as
 * going, so a waitIdle right after cannot return before the run began.
 */
export async function send(view: Frame, question: string): Promise<void> {
  const messages = view.locator('[data-testid="user-message"]');
  const before = await messages.count();
  const prompt = view.locator('[data-testid="prompt"]');
  await prompt.fill(question);
  await prompt.press('Enter');
  await waitFor(async () => (await messages.count()) > before, `"${question}" to show as sent`, 30_000);
}

/** Types `typed` (an `@` word) into the prompt box and clicks the picker's item for `itemPath`. */
export async function pickContextItem(view: Frame, typed: string, itemPath: string): Promise<void> {
  const prompt = view.locator('[data-testid="prompt"]');
  await prompt.click();
  await prompt.pressSequentially(typed);
  const option = view.locator(`[data-testid="context-option"][data-path="${itemPath}"]`);
  await option.waitFor({ state: 'visible', timeout: 15_000 });
  await option.click();
}

/** Waits until the panel says no run is in progress. */
export async function waitIdle(view: Frame, limitMs = 60_000): Promise<void> {
  await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end', limitMs);
}

/**
 * Runs a test body; on failure keeps a screenshot named `<prefix>-<name>-failure`
 * and prints the session's logs. `current` gives the session at that moment
 * (a file may relaunch VS Code between tests).
 */
export function failureReporter(prefix: string, current: () => VsCodeSession | undefined) {
  return async (name: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (error) {
      const session = current();
      await session?.screenshot(`${prefix}-${name}-failure`).catch(() => undefined);
      if (session) console.error(session.logs());
      throw error;
    }
  };
}

/**
 * After a window reload: waits until the panel shows the `userMessages` it
 * had and no run going. It may come back from a snapshot saved before the
 * last exchange, or while the last run was going, and the host then sends the
 * rest; a question sent before that is refused (a run shows as going) or
 * counted wrongly as sent.
 */
export async function waitRestored(view: Frame, userMessages: number): Promise<void> {
  await waitFor(async () => (await view.locator('[data-testid="user-message"]').count()) === userMessages, `the ${userMessages} restored questions`);
  await waitIdle(view);
}

/** The panel's frame after a window reload: the restored view can take long to resolve on a loaded machine. */
export function panelAfterReload(session: VsCodeSession): Promise<Frame> {
  return openTandemWebview(session.page, { firstClickAfterMs: 4000, limitMs: 90_000 });
}

/** Opens a workspace file through Quick Open (Ctrl+P) and clicks into its editor; returns the editor's text area. */
export async function openFileInEditor(session: VsCodeSession, name: string): Promise<Locator> {
  const page = session.page;
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  // The row Enter opens is the focused one: while the list still filters, that can be a recent file listed first.
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).first().waitFor({ state: 'visible' });
  await input.press('Enter');
  const editor = page.locator(`.monaco-editor[data-uri$="${name}"] .view-lines`);
  await editor.waitFor({ state: 'visible' });
  await editor.click();
  return editor;
}
