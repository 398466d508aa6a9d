// Whether a configured model can be used at all, decided before a run so a
// newcomer sees the welcome view instead of a request that can only fail.
// OpenAI's own host needs a key (it is never probed: no key, no use); any
// other OpenAI-compatible base URL is usable once something answers there
// (a 401 still answers: the run will say what is wrong); provider `vscode`
// needs VS Code to offer the model.
import { isOpenAiHost } from '../agent/apiKeyScope';
import type { ModelSettings } from './chatModel';
import { isHttpUrl } from '../common/httpUrl';

export interface ModelFacts {
  readonly settings: ModelSettings;
  /** A key would be sent to this base URL (stored, or OPENAI_API_KEY where allowed). */
  readonly hasKey: boolean;
  /** Something answered at the base URL; undefined when it was not probed. */
  readonly reachable?: boolean | undefined;
  /** What answered sent a web page, not the API (a base URL missing its /v1, a web UI's address). */
  readonly webPage?: boolean | undefined;
  /** VS Code offers the model (provider `vscode`); undefined when not asked. */
  readonly vscodeModelFound?: boolean | undefined;
  /** The models the base URL's /models lists; undefined when it was not probed, empty when it lists none. */
  readonly listedModels?: readonly string[] | undefined;
  /** The setting that holds this model's base URL; the function-call model's when not given. */
  readonly baseUrlSetting?: string | undefined;
}

export type UnusableReason = 'badBaseUrl' | 'noKey' | 'unreachable' | 'notAnApi' | 'noVscodeModel';

export interface ModelProblem {
  readonly reason: UnusableReason;
  /** The base URL, or the VS Code model asked for. */
  readonly target: string;
  readonly message: string;
  /** The setting that fixes it, for a problem with the base URL. */
  readonly setting?: string;
}

export const FUNCTION_CALL_BASE_URL = 'tandem.functionCallModel.baseUrl';
export const ANSWER_BASE_URL = 'tandem.answerModel.baseUrl';

/**
 * The setting that holds the answer model's base URL: its own when it differs
 * from the function-call model's (an empty one falls back to that).
 */
export function answerBaseUrlSetting(answerBaseUrl: string, functionCallBaseUrl: string): string {
  return answerBaseUrl === functionCallBaseUrl ? FUNCTION_CALL_BASE_URL : ANSWER_BASE_URL;
}

/** Does this model's usability depend on probing its base URL? */
export function needsProbe(settings: ModelSettings): boolean {
  return settings.provider !== 'vscode' && isHttpUrl(settings.baseUrl) && !isOpenAiHost(settings.baseUrl);
}

/** Why the model cannot be used, or undefined when it can. */
export function modelProblem(facts: ModelFacts): ModelProblem | undefined {
  const { settings } = facts;
  const setting = facts.baseUrlSetting ?? FUNCTION_CALL_BASE_URL;
  if (settings.provider === 'vscode') {
    if (facts.vscodeModelFound) return undefined;
    const message = settings.model
      ? `VS Code offers no language model "${settings.model}".`
      : 'VS Code offers no language models.';
    return { reason: 'noVscodeModel', target: settings.model, message };
  }
  if (!isHttpUrl(settings.baseUrl)) {
    const message = `The base URL "${settings.baseUrl}" is not an http(s) URL, so nothing is sent: fix ${setting}.`;
    return { reason: 'badBaseUrl', target: settings.baseUrl, message, setting };
  }
  if (isOpenAiHost(settings.baseUrl)) {
    return facts.hasKey ? undefined : { reason: 'noKey', target: settings.baseUrl, message: `No API key for ${settings.baseUrl}.` };
  }
  if (facts.reachable === false) {
    return { reason: 'unreachable', target: settings.baseUrl, message: `Nothing answers at ${settings.baseUrl}. Start the server there, or change the base URL (${setting}).`, setting };
  }
  if (facts.webPage === true) {
    const message = `${settings.baseUrl} answers with a web page, not an OpenAI-compatible API: check the base URL (${setting}; a server's API address usually ends in /v1).`;
    return { reason: 'notAnApi', target: settings.baseUrl, message, setting };
  }
  return undefined;
}

/**
 * The model's name when the server lists its models and that name is not
 * among them (Ollama's `name` standing for `name:latest`), else undefined:
 * a warning, not a problem, since a server may serve more than it lists.
 */
export function unlistedModel(model: string, listed: readonly string[]): string | undefined {
  if (!model || listed.length === 0) return undefined;
  const known = new Set(listed.flatMap((name) => (name.endsWith(':latest') ? [name, name.slice(0, -':latest'.length)] : [name])));
  return known.has(model) ? undefined : model;
}

/** Problems with a base URL the user gave, which only a setting fixes. */
export const SERVER_PROBLEMS: ReadonlySet<ModelProblem['reason']> = new Set(['unreachable', 'notAnApi', 'badBaseUrl']);

/** The problems of the models a run would use, each said once. */
export function usabilityProblems(models: readonly ModelFacts[]): ModelProblem[] {
  const problems: ModelProblem[] = [];
  for (const facts of models) {
    const problem = modelProblem(facts);
    if (problem && !problems.some((known) => known.reason === problem.reason && known.target === problem.target)) problems.push(problem);
  }
  return problems;
}

/** What a run calls: in chat mode only the model that answers. */
export interface RunModels {
  readonly mode: 'agent' | 'chat';
  readonly singleModel: boolean;
  readonly functionCallModel: ModelSettings;
  readonly answerModel: ModelSettings;
}

/**
 * What is wrong with the models a run would call that is known without asking
 * any server: a base URL that is not an http(s) URL, OpenAI's own host without
 * a key. A client of the AG-UI endpoint gets this before any request is sent.
 */
export function problemsKnownBeforeRequests(run: RunModels): ModelProblem[] {
  const called = run.singleModel ? [run.functionCallModel] : run.mode === 'chat' ? [run.answerModel] : [run.functionCallModel, run.answerModel];
  return usabilityProblems(
    called
      .filter((settings) => settings.provider !== 'vscode')
      .map((settings) => ({ settings, hasKey: Boolean(settings.apiKey), baseUrlSetting: settings === run.functionCallModel ? FUNCTION_CALL_BASE_URL : answerBaseUrlSetting(settings.baseUrl, run.functionCallModel.baseUrl) })),
  );
}
