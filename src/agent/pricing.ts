// Estimated cost from token counts. The user's `tandem.pricing` table wins;
// otherwise built-in list prices for common models (USD per million tokens,
// as published by the providers in 2025; labelled as defaults in the panel).
import type { AgentSettings, ModelPrice } from './agentSettings';
import type { TokenUsage } from '../models/chatModel';

const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o3-pro': { input: 20, output: 80 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
  'deepseek-chat': { input: 0.27, output: 1.1, cachedInput: 0.07 },
  'deepseek-reasoner': { input: 0.55, output: 2.19, cachedInput: 0.14 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.31 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.075 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.025 },
};

export interface PriceLookup {
  readonly price: ModelPrice;
  /** True when the price is a built-in default rather than the user's. */
  readonly isDefault: boolean;
}

/**
 * What may follow a known name and still be that model: a date or `latest`
 * (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`). Anything else is another
 * model or a typo (`o3-deep-research`, `claude-opus-4-7`, `gpt-4o-mnii`), whose
 * price is not known rather than guessed from its neighbour's.
 */
const SNAPSHOT_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$/;

/** Exact name first, then without a provider prefix (`openai/gpt-4o`), then a dated snapshot of a known name (`gpt-4o-2024-08-06`). */
function lookup(table: Readonly<Record<string, ModelPrice>>, model: string): ModelPrice | undefined {
  const names = [model, model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : undefined];
  for (const name of names) {
    if (name === undefined) continue;
    const exact = table[name];
    if (exact) return exact;
  }
  const bare = names[1] ?? model;
  const known = Object.keys(table).find((name) => bare.startsWith(`${name}-`) && SNAPSHOT_SUFFIX.test(bare.slice(name.length)));
  return known === undefined ? undefined : table[known];
}

export function findPrice(model: string, userPricing: Readonly<Record<string, ModelPrice>>): PriceLookup | undefined {
  const user = lookup(userPricing, model);
  if (user) return { price: user, isDefault: false };
  const builtIn = lookup(DEFAULT_PRICES, model);
  return builtIn ? { price: builtIn, isDefault: true } : undefined;
}

/** USD for the given counts; undefined when a count needed for it is unknown. */
export function costOf(usage: Pick<TokenUsage, 'promptTokens' | 'completionTokens' | 'cachedTokens'>, price: ModelPrice): number | undefined {
  if (usage.promptTokens === undefined || usage.completionTokens === undefined) return undefined;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const fresh = usage.promptTokens - cached;
  const cachedRate = price.cachedInput ?? price.input;
  return (fresh * price.input + cached * cachedRate + usage.completionTokens * price.output) / 1_000_000;
}

/**
 * What to tell a user whose cost cap (tandem.agent.maxCostPerRun) cannot stop
 * the run because a model has no known price; undefined when it can (or none is set).
 */
export function costCapWithoutPrice(settings: Pick<AgentSettings, 'maxCostPerRun' | 'pricing' | 'functionCallModel' | 'answerModel'>): string | undefined {
  if (!(settings.maxCostPerRun > 0)) return undefined;
  const names = [...new Set([settings.functionCallModel.model, settings.answerModel.model])].filter((model) => findPrice(model, settings.pricing) === undefined);
  if (names.length === 0) return undefined;
  const listed = names.map((name) => `"${name}"`).join(' and ');
  return `tandem.agent.maxCostPerRun ($${settings.maxCostPerRun}) cannot stop this run: no price is known for ${listed}. Add ${names.length === 1 ? 'it' : 'them'} to tandem.pricing, or cap tokens with tandem.agent.maxTokensPerRun.`;
}
