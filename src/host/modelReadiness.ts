// Is any model usable? Checked when the panel opens and whenever the settings,
// the stored keys or VS Code's models change; never during activation. While
// no model is usable the panel shows the welcome view (set a key, use a local
// server it found, use VS Code's models) instead of a run that can only fail.
import * as vscode from 'vscode';
import { findLocalServers, localServersFrom, probeEndpoint, type FoundServer } from '../models/endpointProbe';
import { answerBaseUrlSetting, needsProbe, SERVER_PROBLEMS, unlistedModel, usabilityProblems, type ModelFacts } from '../models/modelUsability';
import type { ModelSettings } from '../models/chatModel';
import type { WelcomeState } from '../protocol/webviewMessages';
import type { ApiKeys } from './secrets';
import type { ReadSettings } from './settingsReader';
import { listVscodeModels, selectVscodeModel } from './vscodeChatModel';

export class ModelReadiness implements vscode.Disposable {
  /** undefined: not checked yet; null: a model is usable. */
  private state: WelcomeState | null | undefined;
  private found: readonly FoundServer[] = [];
  private sequence = 0;
  private readonly disposables: vscode.Disposable[] = [];
  /** Models already warned of as not listed by their server (`baseUrl\nmodel`): said once a window. */
  private readonly warnedUnlisted = new Set<string>();
  /** Writes of several settings under way (see `settling`): the states between them warn of nothing. */
  private settlingWrites = 0;

  constructor(
    private readonly read: () => ReadSettings,
    private readonly keys: ApiKeys,
    private readonly publish: (welcome: WelcomeState | null) => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Re-checks on its own when a key is stored or removed, or VS Code's models change. */
  watch(secrets: vscode.SecretStorage): this {
    this.disposables.push(secrets.onDidChange(() => void this.check()));
    // `vscode.lm` may be missing in an older host.
    const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
    if (lm?.onDidChangeChatModels) this.disposables.push(lm.onDidChangeChatModels(() => void this.check()));
    return this;
  }

  /** True once a check found no usable model (and none since found one). */
  get unusable(): boolean {
    return this.state !== undefined && this.state !== null;
  }

  /** The last state, for a panel that just opened. */
  get current(): WelcomeState | null | undefined {
    return this.state;
  }

  /**
   * Runs writes of several model settings (a model, then its base URL): the
   * checks their changes start warn of nothing, since a state between two
   * writes pairs one model's name with another's server. Checks once after.
   */
  async settling<T>(write: () => Promise<T>): Promise<T> {
    this.settlingWrites++;
    try {
      return await write();
    } finally {
      this.settlingWrites--;
      void this.check();
    }
  }

  /** Checks now; resolves true when a model is usable. The newest check wins. */
  async check(): Promise<boolean> {
    const sequence = ++this.sequence;
    const read = this.read();
    const { settings } = read;
    const models = settings.singleModel ? [settings.functionCallModel] : [settings.functionCallModel, settings.answerModel];
    const settingOf = [undefined, answerBaseUrlSetting(settings.answerModel.baseUrl, settings.functionCallModel.baseUrl)];
    const facts = await Promise.all(models.map((model, index) => this.facts(model, read.userBaseUrls, settingOf[index])));
    if (sequence === this.sequence && this.settlingWrites === 0) this.warnUnlisted(facts);
    const problems = usabilityProblems(facts);
    if (problems.length === 0) {
      if (sequence === this.sequence) this.set(null);
      return true;
    }
    const servers = localServersFrom(this.env);
    const [found, vscodeModels] = await Promise.all([findLocalServers(servers), listVscodeModels()]);
    // Every problem is a base URL of the user's: the view leads with the setting that fixes it.
    const serverOnly = problems.every((problem) => SERVER_PROBLEMS.has(problem.reason));
    const settingToFix = serverOnly ? problems[0]!.setting : undefined;
    if (sequence === this.sequence) {
      this.found = found;
      this.set({
        problems: problems.map((problem) => problem.message),
        localServers: found.map(({ name, baseUrl, models: names }) => ({ name, baseUrl, models: names })),
        localServersTried: servers.map((server) => `${server.name} at ${server.baseUrl}`),
        vscodeModels: vscodeModels.map(({ id, name, vendor }) => ({ id, name, vendor })),
        ...(settingToFix ? { settingToFix } : {}),
      });
    }
    return false;
  }

  /** Was this model of this server among those the last check found? (The panel is not trusted to name any URL.) */
  foundLocalModel(baseUrl: string, model: string): boolean {
    return this.found.some((server) => server.baseUrl === baseUrl && server.models.includes(model));
  }

  private async facts(model: ModelSettings, userBaseUrls: readonly string[], baseUrlSetting: string | undefined): Promise<ModelFacts> {
    const [hasKey, probe, vscodeModelFound] = await Promise.all([
      this.keys.keyFor(model.baseUrl, userBaseUrls).then(Boolean, () => false),
      needsProbe(model) ? probeEndpoint(model.baseUrl) : undefined,
      model.provider === 'vscode' ? selectVscodeModel(model.model).then(Boolean, () => false) : undefined,
    ]);
    return { settings: model, hasKey, reachable: probe?.reachable, webPage: probe?.webPage, vscodeModelFound, listedModels: probe?.models, baseUrlSetting };
  }

  /** A model name the server does not list is most likely mistyped: said before a run fails on it, once. */
  private warnUnlisted(facts: readonly ModelFacts[]): void {
    for (const { settings, listedModels } of facts) {
      const model = unlistedModel(settings.model, listedModels ?? []);
      const key = `${settings.baseUrl}\n${model}`;
      if (model === undefined || this.warnedUnlisted.has(key)) continue;
      this.warnedUnlisted.add(key);
      // The server's names and the settings' are not ours: a few, cut short, with no Markdown link syntax (a toast runs command: links).
      const offered = listedModels!.slice(0, 5).map(plain).join(', ') + (listedModels!.length > 5 ? ', …' : '');
      void vscode.window
        .showWarningMessage(`Tandem: ${plain(urlForDisplay(settings.baseUrl))} does not list the model "${plain(model)}" (it lists ${offered}); a request for it may fail.`, 'Select Models')
        .then((choice) => (choice ? vscode.commands.executeCommand('tandem.selectModels') : undefined));
    }
  }

  private set(state: WelcomeState | null): void {
    const changed = JSON.stringify(state) !== JSON.stringify(this.state);
    this.state = state;
    if (changed) this.publish(state);
  }

  dispose(): void {
    this.sequence++;
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** Outside text for a toast: no Markdown link syntax, at most 60 characters. */
function plain(text: string): string {
  const bare = text.replace(/[[\]()]/g, ' ');
  return bare.length > 60 ? `${bare.slice(0, 59)}…` : bare;
}

/** A base URL without credentials or query, as a message may show it. */
function urlForDisplay(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return baseUrl;
  }
}
