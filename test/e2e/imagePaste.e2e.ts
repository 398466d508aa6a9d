// Pasting an image into the prompt box, and dropping files on it, in a real VS Code (code-server +
// headless Chromium) against the scripted model server: the picture becomes a
// context chip (one that is not a picture an error chip saying why), goes to
// both models as an image part of the question and shows under it, and the
// next turn keeps only the line that describes it. Files dropped from the
// explorer become chips as "Add to Tandem Context" makes them (one outside
// the workspace an error chip), an image file from outside a picture chip.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { LoggedRequest, ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, openFileInEditor, send, waitFor, waitIdle } from './viewSteps';

/** A real 2×3 PNG (68 bytes). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAC0lEQVR4nGNgwAIAABUAAapll8QAAAAASUVORK5CYII=';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({ name: 'image-paste', files: { 'README.md': '# Login page\n', 'docs/guide.md': 'A guide.\n' } }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('image-paste', () => session);

/** Pastes files into the prompt box as the clipboard would hand them over (a screenshot tool's PNG, say). */
async function paste(view: Frame, files: readonly { name: string; type: string; base64: string }[]): Promise<void> {
  await view.locator('[data-testid="prompt"]').evaluate((box, items) => {
    const clipboard = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0));
      clipboard.items.add(new File([bytes], item.name, { type: item.type }));
    }
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
  }, files);
}

/** The image parts of a request's user messages. */
function imageUrls(request: LoggedRequest | undefined): string[] {
  const messages = (request?.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === 'user' && Array.isArray(message.content))
    .flatMap((message) => (message.content as { type: string; image_url?: { url: string } }[]).filter((part) => part.type === 'image_url').map((part) => part.image_url?.url ?? ''));
}

test('a pasted screenshot is a chip, goes to both models as a picture with the question, and later turns keep its description', { timeout: 120_000 }, () =>
  guarded('paste', async () => {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.click();
    await paste(view, [
      { name: 'login-bug.png', type: 'image/png', base64: PNG },
      // Labelled a PNG by the page, but text: the host reads the bytes.
      { name: 'notes.png', type: 'image/png', base64: Buffer.from('not a picture at all').toString('base64') },
    ]);
    const good = view.locator('[data-testid="context-chip"]', { hasText: 'login-bug.png' });
    await good.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match((await good.getAttribute('title')) ?? '', /^PNG image, 68 bytes, 2×3$/);
    const bad = view.locator('[data-testid="context-chip"]', { hasText: 'notes.png' });
    await bad.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await bad.getAttribute('data-error'), 'not a PNG, JPEG, GIF or WebP image');
    assert.equal(await good.locator('img.context-chip-thumbnail').getAttribute('src'), `data:image/png;base64,${PNG}`, 'the chip shows the picture');
    assert.equal(await bad.locator('img').count(), 0, 'an error chip shows none');
    assert.equal(await prompt.inputValue(), '', 'nothing was typed by the paste');
    await session.screenshot('image-paste-chips');

    server.push({ model: fc, content: 'The screenshot shows it.' }, { model: answerModel, content: 'The login button is cut off.' });
    await send(view, 'What is wrong on this page?');
    await view.locator('[data-testid="answer"]', { hasText: 'The login button is cut off.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    const [fcRequest, answerRequest] = server.requests.slice(-2);
    assert.deepEqual(imageUrls(fcRequest), [`data:image/png;base64,${PNG}`], 'the function-call model got the picture');
    assert.deepEqual(imageUrls(answerRequest), [`data:image/png;base64,${PNG}`], 'the answer model got the picture');
    assert.match(JSON.stringify(fcRequest?.messages), /Image login-bug\.png \(PNG image, 68 bytes, 2×3\) pasted by the user/);
    assert.match(JSON.stringify(fcRequest?.messages), /notes\.png was not attached: not a PNG, JPEG, GIF or WebP image/);
    assert.equal(await view.locator('[data-testid="context-chip"]').count(), 0, 'the chips are used up by the send');
    // The question shows the picture it went with (while the window is open: images are never stored).
    await waitFor(async () => (await view.locator('[data-testid="user-message"]').last().locator('[data-testid="result-image"]').count()) === 1, 'the picture under the question');
    assert.equal(await view.locator('[data-testid="user-message"]').last().locator('[data-testid="result-image"]').getAttribute('src'), `data:image/png;base64,${PNG}`);
    await session.screenshot('image-paste-sent');
    const question = await view.locator('[data-testid="user-message"]').last().innerText();
    assert.match(question, /login-bug\.png/);
    assert.match(question, /notes\.png \(not sent: not a PNG, JPEG, GIF or WebP image\)/);

    // Retry asks again with the picture (held in memory while the window is open).
    server.push({ model: fc, content: 'Looked again.' }, { model: answerModel, content: 'The button is still cut off.' });
    await view.locator('[data-testid="retry"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'The button is still cut off.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    assert.deepEqual(imageUrls(server.requests.at(-2)), [`data:image/png;base64,${PNG}`], 'Retry sent the picture again');

    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'Make the card wider.' });
    await send(view, 'How do I fix it?');
    await view.locator('[data-testid="answer"]', { hasText: 'Make the card wider.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    const next = server.requests.at(-2);
    assert.deepEqual(imageUrls(next), [], 'the picture went with its own run only');
    assert.match(JSON.stringify(next?.messages), /Image login-bug\.png \(PNG image, 68 bytes, 2×3\) pasted by the user/, 'its description stays');
  }),
);

test('files dropped on the prompt box from the explorer become chips; an image file from outside becomes a picture', { timeout: 90_000 }, () =>
  guarded('drop', async () => {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    // A real drag, through VS Code: an editor's tab onto the prompt box, Shift held as VS Code asks.
    const page = session.page;
    await openFileInEditor(session, 'README.md');
    const from = (await page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().boundingBox())!;
    const to = (await prompt.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.keyboard.down('Shift');
    for (let step = 1; step <= 20; step++) {
      await page.mouse.move(from.x + ((to.x + to.width / 2 - from.x) * step) / 20, from.y + ((to.y + to.height / 2 - from.y) * step) / 20);
    }
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const dragged = view.locator('[data-testid="context-chip"][data-path="README.md"]');
    await dragged.waitFor({ state: 'visible', timeout: 10_000 });
    await dragged.locator('[data-testid="context-chip-remove"]').click();
    await dragged.waitFor({ state: 'detached', timeout: 10_000 });

    // What VS Code's explorer puts on a drag (its own list holds every item), and a screenshot file from the desktop.
    const uris = [`file://${workspace}/README.md`, `vscode-remote://127.0.0.1:8080${workspace}/docs`, 'file:///etc/hostname'];
    await prompt.evaluate((box, { list, png }) => {
      const transfer = new DataTransfer();
      transfer.setData('application/vnd.code.uri-list', list.join('\r\n'));
      transfer.setData('text/uri-list', list[0]!);
      const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
      box.dispatchEvent(over);
      if (!over.defaultPrevented) throw new Error('the box did not take the drag');
      box.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      const fromDesktop = new DataTransfer();
      fromDesktop.items.add(new File([Uint8Array.from(atob(png), (char) => char.charCodeAt(0))], 'screenshot.png', { type: 'image/png' }));
      box.dispatchEvent(new DragEvent('drop', { dataTransfer: fromDesktop, bubbles: true, cancelable: true }));
    }, { list: uris, png: PNG });
    const chip = (pathOrLabel: string) => view.locator(`[data-testid="context-chip"][data-path="${pathOrLabel}"]`);
    await chip('README.md').waitFor({ state: 'visible', timeout: 10_000 });
    await chip('docs').waitFor({ state: 'visible', timeout: 10_000 });
    const outside = view.locator('[data-testid="context-chip"][data-error]', { hasText: 'hostname' });
    await outside.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match((await outside.getAttribute('data-error')) ?? '', /outside|not in the workspace|workspace folder/i);
    await view.locator('[data-testid="context-chip"]', { hasText: 'screenshot.png' }).locator('img.context-chip-thumbnail').waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('image-paste-drop');
    for (let left = await view.locator('[data-testid="context-chip-remove"]').count(); left > 0; left--) {
      await view.locator('[data-testid="context-chip-remove"]').first().click();
      await waitFor(async () => (await view.locator('[data-testid="context-chip-remove"]').count()) === left - 1, 'a chip to go');
    }
  }),
);
