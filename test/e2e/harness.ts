// A real VS Code for end-to-end tests: code-server with the built Tandem
// extension linked in, driven by headless Debian Chromium through
// playwright-core. Builds nothing: `npm test` builds first.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { extensionHostLogs, linkExtension, repositoryRoot, startCodeServer, type CodeServerProcess } from './harnessProcess';

export interface VsCodeSession {
  page: Page;
  userDataDir: string;
  workspace: string;
  /** The tandem.chat view's inner frame; opens the Tandem view if needed and waits for `[data-testid="prompt"]`. */
  webview(): Promise<Frame>;
  /** Runs a command through the command palette (F1, then its title). */
  runCommand(id: string, title?: string): Promise<void>;
  /** Saves test-results/screenshots/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Reloads the window. */
  reload(): Promise<void>;
  /**
   * Merges `patch` into User/settings.json and reloads the window. The reload
   * is needed: code-server's server notices the file change, but its web
   * workbench does not re-read user settings edited on disk while it is open.
   */
  updateSettings(patch: Record<string, unknown>): Promise<void>;
  /** code-server output, extension host logs and the browser console. */
  logs(): string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  workspace: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Extra extension folders to link, e.g. the integration runner. */
  extensions?: string[];
  /** The Tandem folder to link (default: this repository, with its built dist/). */
  extensionDir?: string;
  /** Reuse a user-data dir (e.g. to test a restart); it is then left in place on close. */
  userDataDir?: string;
  /**
   * Turn Workspace Trust on (it is off by default here): the folder then opens
   * untrusted, in Restricted Mode, without the startup prompt.
   */
  workspaceTrust?: boolean;
  /** Extra code-server arguments, e.g. `--enable-proposed-api <extension id>`. */
  codeServerArgs?: string[];
}

const chromiumPath = '/usr/bin/chromium';
// Without the networking flags Chromium keeps calling out to a closed network.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Quiet, predictable workbench: no welcome page, no trust prompt, no telemetry.
const baseSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'git.enabled': false,
  'window.restoreWindows': 'none',
};

export const screenshotsDir = path.join(repositoryRoot, 'test-results', 'screenshots');

export async function launchVsCode(options: LaunchOptions): Promise<VsCodeSession> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-vscode-'));
  const userDataDir = options.userDataDir ?? path.join(scratch, 'user-data');
  const extensionsDir = path.join(scratch, 'extensions');
  const workspace = path.resolve(options.workspace);
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  // A reused user-data dir keeps what the last session wrote (e.g. the model pickers).
  const startingSettings = options.userDataDir ? readSettings(settingsFile) ?? baseSettings : baseSettings;
  const trustSettings = options.workspaceTrust
    ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'always' }
    : {};
  fs.writeFileSync(settingsFile, JSON.stringify({ ...startingSettings, ...trustSettings, ...options.settings }, null, 2));
  const extensionDir = options.extensionDir ?? repositoryRoot;
  if (!fs.existsSync(path.join(extensionDir, 'dist', 'extension.js'))) {
    throw new Error(`${extensionDir}/dist/extension.js is missing: run \`npm run build\` first`);
  }
  linkExtension(extensionDir, extensionsDir);
  for (const extension of options.extensions ?? []) linkExtension(extension, extensionsDir);

  let server: CodeServerProcess | undefined;
  let browser: Browser | undefined;
  const consoleLines: string[] = [];
  const cleanUp = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    // A reused user-data dir lives outside scratch and stays.
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    server = await startCodeServer({ userDataDir, extensionsDir, workspace, env: options.env ?? {}, workspaceTrust: options.workspaceTrust ?? false, extraArgs: options.codeServerArgs ?? [] });
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    // tsx compiles test files with esbuild's keepNames, so a function passed to
    // frame.evaluate() may call esbuild's __name helper; give every frame one.
    await page.addInitScript({ content: 'globalThis.__name ??= (target) => target;' });
    page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(page);
    const startedServer = server;
    return {
      page,
      userDataDir,
      workspace,
      webview: () => openTandemWebview(page),
      runCommand: (id, title) => runCommand(page, id, title),
      screenshot: async (name) => {
        fs.mkdirSync(screenshotsDir, { recursive: true });
        const file = path.join(screenshotsDir, `${name}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      reload: () => reloadWindow(page),
      updateSettings: async (patch) => {
        fs.writeFileSync(settingsFile, JSON.stringify({ ...readSettings(settingsFile), ...patch }, null, 2));
        await reloadWindow(page);
      },
      logs: () =>
        [
          '=== code-server', startedServer.output(),
          '=== extension host', extensionHostLogs(userDataDir),
          '=== browser console', consoleLines.join('\n'),
        ].join('\n'),
      close: cleanUp,
    };
  } catch (error) {
    const output = server?.output() ?? '';
    await cleanUp();
    throw new Error(`launchVsCode failed: ${(error as Error).message}\n${output}`, { cause: error });
  }
}

function readSettings(settingsFile: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function reloadWindow(page: Page): Promise<void> {
  await page.reload();
  await waitForWorkbench(page);
}

async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
}

/**
 * The frame that holds the Tandem panel, opening the view when it is not
 * showing. The container's activity-bar entry toggles the sidebar, so it is
 * clicked only while it is not the active one, and again every 4 s while the
 * view has not come (a reveal racing the click can close what it opened).
 * `firstClickAfterMs` lets a view that is coming back by itself (after a
 * reload) arrive before the first click.
 */
export async function openTandemWebview(page: Page, { firstClickAfterMs = 0, limitMs = 60_000 } = {}): Promise<Frame> {
  const entry = page.locator('.activitybar .action-item:has(a[aria-label^="Tandem"])').first();
  const deadline = Date.now() + limitMs;
  let nextClick = Date.now() + firstClickAfterMs;
  while (Date.now() < deadline) {
    const frame = await findFrameWith(page, '[data-testid="prompt"]');
    if (frame) return frame;
    if (Date.now() >= nextClick && (await entry.count()) > 0) {
      if (!((await entry.getAttribute('class')) ?? '').split(/\s+/).includes('checked')) {
        await entry.click();
        // Away from the entry, so its tooltip stays out of screenshots.
        await page.mouse.move(700, 450);
      }
      nextClick = Date.now() + 4000;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the Tandem view (a webview with [data-testid="prompt"]) did not appear within ${limitMs / 1000} s`);
}

async function findFrameWith(page: Page, selector: string): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const found = await frame.$(selector).catch(() => null);
    if (found) return frame;
  }
  return undefined;
}

async function runCommand(page: Page, id: string, title?: string): Promise<void> {
  const label = title ?? commandTitle(id);
  const input = page.locator('.quick-input-widget input');
  // The palette can close again right after it opens when focus moves under
  // it (an editor or a webview taking focus late); open it again then.
  for (let attempt = 1; ; attempt++) {
    await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true }).catch(() => undefined);
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${label}`, { timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

/** "Category: Title" from the manifest, as the palette shows it. */
function commandTitle(id: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as {
    contributes?: { commands?: { command: string; title: string; category?: string }[] };
  };
  const command = manifest.contributes?.commands?.find((candidate) => candidate.command === id);
  if (!command) throw new Error(`no title known for command ${id}; pass one`);
  return command.category ? `${command.category}: ${command.title}` : command.title;
}
