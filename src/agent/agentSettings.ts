// Settings as the agent uses them, validated with zod at the border. Every
// field is checked on its own: a bad value yields a warning naming the key and
// the default for that key, never a crash and never the loss of the others.
import { z } from 'zod';
import type { ModelSettings } from '../models/chatModel';
import { isHttpUrl, isLocalNetworkHost } from '../common/httpUrl';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * `tandem.agent.rulesFiles` by default: the files Codex, Copilot, Claude Code,
 * Cline and Cursor users already keep (a copy of one under another name is read once).
 */
/** The highest `tandem.agent.maxIterations` (package.json says the same). */
export const MAX_ITERATIONS = 10;

export const DEFAULT_RULES_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.clinerules', '.clinerules/*.md', '.cursorrules', '.github/instructions/*.instructions.md', '.tandem/rules/*.md'];

export interface ModelPrice {
  /** USD per million input tokens. */
  readonly input: number;
  /** USD per million output tokens. */
  readonly output: number;
  /** USD per million cached input tokens; defaults to `input`. */
  readonly cachedInput?: number | undefined;
}

export interface AgentSettings {
  readonly functionCallModel: ModelSettings;
  /** Undefined model: single-model mode, the function-call model answers. */
  readonly answerModel: ModelSettings;
  readonly singleModel: boolean;
  readonly mode: 'agent' | 'chat';
  readonly maxIterations: number;
  readonly maxExecutionSeconds: number;
  /** Run budget; 0 = no limit. */
  readonly maxTokensPerRun: number;
  readonly maxCostPerRun: number;
  readonly responseMode: 'integrated' | 'streaming';
  readonly nonToolReply: 'answer' | 'remind' | 'user';
  readonly minResultLength: number;
  readonly verbose: boolean;
  /** Offer run_subagent in agent mode (`tandem.agent.subagents`); absent: not offered. */
  readonly subagents?: boolean | undefined;
  /** The custom agent runs work as (`tandem.agent.customAgent`, customAgents.ts); empty or absent: none. */
  readonly customAgent?: string | undefined;
  readonly autoApprove: 'readOnly' | 'all' | 'none';
  /** Tools (or `run_command:<prefix>`) that run without asking; `autoApprove` is the default for the rest. */
  readonly alwaysAllow: readonly string[];
  /** Extra globs whose writes always ask, besides the built-in list. */
  readonly sensitivePaths: readonly string[];
  /** Workspace-relative rules files (last segment may hold `*`) whose text joins both system prompts. */
  readonly rulesFiles: readonly string[];
  readonly mcpServers: Record<string, unknown>;
  readonly pricing: Readonly<Record<string, ModelPrice>>;
  /** The user's system-prompt templates (`tandem.prompts`); absent or empty: the built-in prompts. */
  readonly prompts?: PromptTemplates | undefined;
}

const template = z.string().max(50_000);
const promptTemplates = z.strictObject({
  functionCall: template.optional(),
  answer: template.optional(),
  chat: template.optional(),
  variants: z
    .array(z.strictObject({ models: z.string().trim().min(1), functionCall: template.optional(), answer: template.optional(), chat: template.optional() }))
    .max(100)
    .optional(),
});
export type PromptTemplates = z.infer<typeof promptTemplates>;

const url = z.string().trim().refine(isHttpUrl, 'must be an http(s) URL');

/**
 * A base URL typed without its scheme (`localhost:11434/v1`, as Ollama's
 * docs write it) read with the one a server there would use: http on this
 * machine or a private network, https elsewhere. Undefined when it is not
 * host[:port][/path].
 */
export function withScheme(text: string): string | undefined {
  const trimmed = text.trim();
  const match = /^([\w.-]+|\[[\da-f:]+\])(:\d{1,5})?(\/\S*)?$/i.exec(trimmed);
  if (!match || !/[.:[]|^localhost$/i.test(match[1]! + (match[2] ?? ''))) return undefined;
  // A model server on this machine or its network (a bare name like `gpu-box` too) answers plain http.
  return `${isLocalNetworkHost(match[1]!) ? 'http' : 'https'}://${trimmed}`;
}

/** Enum values matched without regard to case or surrounding spaces (`"Chat"` is chat). */
function looseEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? (values.find((each) => each.toLowerCase() === value.trim().toLowerCase()) ?? value) : value),
    z.enum(values),
  );
}
const price = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  cachedInput: z.number().min(0).optional(),
});

/** One schema and default per setting key (without the `tandem.` prefix). */
const fields = {
  'functionCallModel.provider': { schema: looseEnum(['openai', 'vscode']), fallback: 'openai' },
  'functionCallModel.baseUrl': { schema: url, fallback: OPENAI_BASE_URL },
  'functionCallModel.model': { schema: z.string().trim().min(1), fallback: 'gpt-4o-mini' },
  'functionCallModel.temperature': { schema: z.number().min(0).max(2), fallback: 0 },
  'functionCallModel.maxTokens': { schema: z.number().int().min(1), fallback: 2048 },
  'functionCallModel.contextWindow': { schema: z.number().int().min(0), fallback: 0 },
  'answerModel.provider': { schema: looseEnum(['openai', 'vscode']), fallback: 'openai' },
  'answerModel.baseUrl': { schema: z.union([z.literal(''), url]), fallback: '' },
  'answerModel.model': { schema: z.string().trim(), fallback: '' },
  'answerModel.temperature': { schema: z.number().min(0).max(2), fallback: 0.3 },
  'answerModel.maxTokens': { schema: z.number().int().min(1), fallback: 4096 },
  'answerModel.contextWindow': { schema: z.number().int().min(0), fallback: 0 },
  'agent.mode': { schema: looseEnum(['agent', 'chat']), fallback: 'agent' },
  'agent.maxIterations': { schema: z.number().int().min(1).max(MAX_ITERATIONS), fallback: 5 },
  'agent.maxExecutionSeconds': { schema: z.number().int().min(10).max(300), fallback: 60 },
  'agent.maxTokensPerRun': { schema: z.number().int().min(0), fallback: 0 },
  'agent.maxCostPerRun': { schema: z.number().min(0), fallback: 0 },
  'agent.responseMode': { schema: looseEnum(['integrated', 'streaming']), fallback: 'integrated' },
  'agent.nonToolReply': { schema: looseEnum(['answer', 'remind', 'user']), fallback: 'answer' },
  'agent.minResultLength': { schema: z.number().int().min(0).max(10_000), fallback: 20 },
  'agent.verbose': { schema: z.boolean(), fallback: false },
  'agent.subagents': { schema: z.boolean(), fallback: true },
  'agent.customAgent': { schema: z.string().trim().max(64), fallback: '' },
  'agent.rulesFiles': { schema: z.array(z.string().trim().min(1).max(500)).max(100), fallback: [...DEFAULT_RULES_FILES] as string[], entry: z.string().trim().min(1).max(500) },
  'tools.autoApprove': { schema: looseEnum(['readOnly', 'all', 'none']), fallback: 'readOnly' },
  'tools.alwaysAllow': { schema: z.array(z.string().trim().min(1).max(1000)).max(1000), fallback: [] as string[], entry: z.string().trim().min(1).max(1000) },
  'tools.sensitivePaths': { schema: z.array(z.string().trim().min(1).max(1000)).max(1000), fallback: [] as string[], entry: z.string().trim().min(1).max(1000) },
  'mcp.servers': { schema: z.record(z.string(), z.unknown()), fallback: {} },
  pricing: { schema: z.record(z.string(), price), fallback: {}, entry: price },
  prompts: { schema: promptTemplates, fallback: {} as PromptTemplates },
} as const;

export type SettingKey = keyof typeof fields;
export const SETTING_KEYS = Object.keys(fields) as SettingKey[];

type FieldValue<K extends SettingKey> = z.infer<(typeof fields)[K]['schema']>;

/**
 * Raw values as the host reads them: only what the user set explicitly
 * (any scope). Missing keys fall back to environment variables, then defaults.
 */
export type RawSettings = Partial<Record<SettingKey, unknown>>;

/** A settings warning and the setting (`tandem.…`) that fixes it: its text may name others too. */
export interface SettingsWarning {
  readonly message: string;
  /** Absent when no setting fixes it (a malformed environment variable). */
  readonly setting?: string;
}

export interface SettingsResult {
  readonly settings: AgentSettings;
  /** One message per rejected value, naming the key, the fault and the default used. */
  readonly warnings: readonly string[];
  /** The same warnings, each with the setting to open to fix it. */
  readonly settingsWarnings: readonly SettingsWarning[];
}

const envModel = z
  .object({
    baseUrl: url.optional(),
    model: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).optional(),
  })
  .strict();

/** Settings the spec allows from environment variables, as raw values keyed like the settings. */
function fromEnvironment(env: NodeJS.ProcessEnv, warnings: SettingsWarning[]): RawSettings {
  const raw: Record<string, unknown> = {};
  const model = (variable: string, prefix: 'functionCallModel' | 'answerModel') => {
    const text = env[variable];
    if (!text) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      warnings.push({ message: `${variable} is not valid JSON; it is ignored.` });
      return;
    }
    const result = envModel.safeParse(parsed);
    if (!result.success) {
      warnings.push({ message: `${variable}: ${describeIssues(result.error)}; it is ignored.` });
      return;
    }
    for (const [field, value] of Object.entries(result.data)) {
      if (value !== undefined) raw[`${prefix}.${field}`] = value;
    }
  };
  model('AGENT_FUNCTION_CALL_MODEL', 'functionCallModel');
  model('AGENT_ANSWER_MODEL', 'answerModel');
  if (env.OPENAI_BASE_URL && raw['functionCallModel.baseUrl'] === undefined) {
    raw['functionCallModel.baseUrl'] = env.OPENAI_BASE_URL;
  }
  const integer = (variable: string, key: SettingKey) => {
    const text = env[variable];
    if (text === undefined || text === '') return;
    raw[key] = /^-?\d+$/.test(text.trim()) ? Number(text) : text;
  };
  integer('AGENT_MAX_ITERATIONS', 'agent.maxIterations');
  integer('AGENT_MAX_EXECUTION_TIME', 'agent.maxExecutionSeconds');
  if (env.AGENT_VERBOSE !== undefined && env.AGENT_VERBOSE !== '') {
    const text = env.AGENT_VERBOSE.trim();
    raw['agent.verbose'] = /^(1|true|yes|on)$/i.test(text);
    if (!/^(0|1|true|false|yes|no|on|off)$/i.test(text)) warnings.push({ message: `AGENT_VERBOSE = ${show(text)} is neither true nor false; read as false.` });
  }
  return raw;
}

/**
 * The entries of a list or map that pass `entry`, with what was dropped; undefined when
 * it is neither, nothing passes, or the rest still fails the whole schema (e.g. too many).
 */
function goodEntries(candidate: unknown, entry: z.ZodType, whole: z.ZodType): { value: unknown; dropped: string[] } | undefined {
  const dropped: string[] = [];
  let value: unknown;
  if (Array.isArray(candidate)) {
    value = candidate.filter((item, index) => {
      const ok = entry.safeParse(item).success;
      if (!ok) dropped.push(`entry ${index + 1} (${show(item)})`);
      return ok;
    });
  } else if (typeof candidate === 'object' && candidate !== null) {
    value = Object.fromEntries(
      Object.entries(candidate).filter(([key, item]) => {
        const result = entry.safeParse(item);
        if (!result.success) dropped.push(`"${key}" (${describeIssues(result.error)})`);
        return result.success;
      }),
    );
  } else return undefined;
  const left = Array.isArray(value) ? value.length : Object.keys(value as object).length;
  const result = whole.safeParse(value);
  return dropped.length > 0 && left > 0 && result.success ? { value: result.data, dropped } : undefined;
}

/**
 * The bound a finite number passed, for a setting that is a range (both ends
 * set: iterations, seconds, temperature); undefined for any other fault. A
 * number with a floor only (`maxTokens: 0`, likely meant as "no limit") gets
 * the default instead: its floor would be a useless value.
 */
function nearestInRange(schema: z.ZodType, candidate: unknown): { value: number; range: string } | undefined {
  if (!(schema instanceof z.ZodNumber) || typeof candidate !== 'number' || !Number.isFinite(candidate)) return undefined;
  const low = schema.minValue;
  const high = schema.maxValue;
  // `int()` alone sets the bounds to the safe-integer limits: those are no range.
  const bounded = (bound: number | null): bound is number => bound !== null && Math.abs(bound) < Number.MAX_SAFE_INTEGER;
  if (!bounded(low) || !bounded(high)) return undefined;
  if (candidate >= low && candidate <= high) return undefined;
  const value = Math.min(Math.max(candidate, low), high);
  return schema.safeParse(value).success ? { value, range: `${low} to ${high}` } : undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ` : '') + issue.message).join('; ');
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The answer model's settings besides its name: used only when it has one. */
const ANSWER_MODEL_DETAILS = ['answerModel.provider', 'answerModel.baseUrl', 'answerModel.temperature', 'answerModel.maxTokens', 'answerModel.contextWindow'] as const satisfies readonly SettingKey[];

/**
 * Validates raw settings. Explicit settings win over environment variables,
 * which win over defaults. A bad environment value is reported like a bad setting.
 */
export function resolveSettings(raw: RawSettings, env: NodeJS.ProcessEnv = process.env): SettingsResult {
  const warnings: SettingsWarning[] = [];
  const fromEnv = fromEnvironment(env, warnings);
  const value = <K extends SettingKey>(key: K): FieldValue<K> => {
    const field = fields[key];
    const warn = (message: string): void => void warnings.push({ message, setting: `tandem.${key}` });
    const explicit = raw[key];
    const source = explicit !== undefined ? `tandem.${key}` : `environment (for tandem.${key})`;
    const candidate = explicit !== undefined ? explicit : fromEnv[key];
    if (candidate === undefined) return field.fallback as FieldValue<K>;
    const result = field.schema.safeParse(candidate);
    if (result.success) return result.data as FieldValue<K>;
    if (key.endsWith('.baseUrl') && typeof candidate === 'string') {
      const repaired = withScheme(candidate);
      if (repaired !== undefined) {
        warn(`${source} = ${show(candidate)} has no scheme; read as ${show(repaired)}.`);
        return repaired as FieldValue<K>;
      }
      // Never the default in its place: that would send the conversation to OpenAI, where the user meant another server.
      warn(`${source} = ${show(candidate)} is invalid (${describeIssues(result.error)}); Tandem sends no request until it is fixed.`);
      return candidate.trim() as FieldValue<K>;
    }
    // A list or map with some bad entries keeps the good ones: one typo must not drop the user's other sensitive paths or prices.
    const kept = 'entry' in field ? goodEntries(candidate, field.entry, field.schema) : undefined;
    if (kept !== undefined) {
      warn(`${source}: ${kept.dropped.join('; ')} ${kept.dropped.length === 1 ? 'is' : 'are'} invalid and left out; the other entries apply.`);
      return kept.value as FieldValue<K>;
    }
    // A number past a bound means "as far as allowed": 50 iterations is 10, not the default 5.
    const bounded = nearestInRange(field.schema, candidate);
    if (bounded !== undefined) {
      warn(`${source} = ${show(candidate)} is out of range (${bounded.range}); using ${bounded.value}.`);
      return bounded.value as FieldValue<K>;
    }
    warn(`${source} = ${show(candidate)} is invalid (${describeIssues(result.error)}); using the default ${show(field.fallback)}.`);
    return field.fallback as FieldValue<K>;
  };

  const functionCallModel: ModelSettings = {
    provider: value('functionCallModel.provider'),
    baseUrl: value('functionCallModel.baseUrl'),
    model: value('functionCallModel.model'),
    temperature: value('functionCallModel.temperature'),
    maxTokens: value('functionCallModel.maxTokens'),
    contextWindow: value('functionCallModel.contextWindow'),
  };
  const answerName = value('answerModel.model');
  const singleModel = answerName === '';
  if (singleModel) {
    // Without a name there is no answer model: its other settings would be silently ignored.
    const unused = ANSWER_MODEL_DETAILS.filter((key) => {
      const given = raw[key] !== undefined ? raw[key] : fromEnv[key];
      return given !== undefined && given !== '' && JSON.stringify(given) !== JSON.stringify(fields[key].fallback);
    });
    if (unused.length > 0) {
      // Naming the model fixes it (clearing the others only hushes it): that is the setting to open.
      warnings.push({
        message: `${unused.map((key) => `tandem.${key}`).join(', ')} ${unused.length === 1 ? 'is' : 'are'} set but tandem.answerModel.model is empty, so one model (tandem.functionCallModel.*) serves both phases and ${unused.length === 1 ? 'it is' : 'they are'} not used. Set tandem.answerModel.model to use a second model.`,
        setting: 'tandem.answerModel.model',
      });
    }
  }
  const answerModel: ModelSettings = singleModel
    ? functionCallModel
    : {
        provider: value('answerModel.provider'),
        baseUrl: value('answerModel.baseUrl') || functionCallModel.baseUrl,
        model: answerName,
        temperature: value('answerModel.temperature'),
        maxTokens: value('answerModel.maxTokens'),
        contextWindow: value('answerModel.contextWindow'),
      };

  const settings: AgentSettings = {
    functionCallModel,
    answerModel,
    singleModel,
    mode: value('agent.mode'),
    maxIterations: value('agent.maxIterations'),
    maxExecutionSeconds: value('agent.maxExecutionSeconds'),
    maxTokensPerRun: value('agent.maxTokensPerRun'),
    maxCostPerRun: value('agent.maxCostPerRun'),
    responseMode: value('agent.responseMode'),
    nonToolReply: value('agent.nonToolReply'),
    minResultLength: value('agent.minResultLength'),
    verbose: value('agent.verbose'),
    subagents: value('agent.subagents'),
    customAgent: value('agent.customAgent'),
    autoApprove: value('tools.autoApprove'),
    alwaysAllow: value('tools.alwaysAllow'),
    sensitivePaths: value('tools.sensitivePaths'),
    rulesFiles: value('agent.rulesFiles'),
    mcpServers: value('mcp.servers'),
    pricing: value('pricing'),
    prompts: value('prompts'),
  };
  return { settings, warnings: warnings.map(({ message }) => message), settingsWarnings: warnings };
}
