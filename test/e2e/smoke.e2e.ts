// Smoke: Tandem loads in a real VS Code (code-server) and its view opens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { launchVsCode, type VsCodeSession } from './harness';

let session: VsCodeSession | undefined;
let workspace: string;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-smoke-'));
  fs.writeFileSync(path.join(workspace, 'hello.txt'), 'hello from the smoke test\n');
  session = await launchVsCode({ workspace });
});

after(async () => {
  await session?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

test('the Tandem view opens in the activity bar with its prompt and Send button', { timeout: 120_000 }, async () => {
  assert.ok(session);
  try {
    const view = await session.webview();
    await view.locator('[data-testid="prompt"]').waitFor({ state: 'visible' });
    await view.locator('[data-testid="send"]').waitFor({ state: 'visible' });
    const activeEntry = session.page.locator('.activitybar .action-item.checked a[aria-label^="Tandem"]');
    assert.equal(await activeEntry.count(), 1, 'the Tandem activity-bar entry is not the active one');
    const file = await session.screenshot('smoke-tandem-view');
    assert.ok(fs.statSync(file).size > 10_000, 'the screenshot is suspiciously small');
  } catch (error) {
    await session.screenshot('smoke-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});
