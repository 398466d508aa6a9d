// Tandem: Condense Conversation — the stored conversation's earlier turns
// condensed by the answer model on request, outside any run. The latest turn
// (the last question and its answer) stays verbatim; the returned payload is
// stored as a `tandem.condensed` event, so later turns use the summary.
import type { ModelPrice } from './agentSettings';
import type { ChatMessage, ChatModel, ModelSettings } from '../models/chatModel';
import { staticContextWindow } from '../models/contextWindow';
import { RequestTokenCounter } from '../models/tokenCounter';
import type { CondensedPayload } from '../protocol/agentEvents';
import { summaryMessage } from '../protocol/conversationHistory';
import { planCondense } from './condensePlan';
import { summarize, summarizerChars } from './contextBudget';
import { UsageTracker } from './usageTracker';

/** The condensation of `history` by `model`; undefined when there is nothing older than the latest turn. */
export async function condenseConversation(
  history: readonly ChatMessage[],
  settings: ModelSettings,
  model: ChatModel,
  signal: AbortSignal,
  pricing: Readonly<Record<string, ModelPrice>> = {},
): Promise<CondensedPayload | undefined> {
  const plan = planCondense(history, undefined, 1, false);
  if (!plan) return undefined;
  // Outside any run: its own tally, so the conversation's totals count the summary's call.
  const usage = new UsageTracker(model.name, model.name, pricing);
  const summary = await summarize(model, plan.older, summarizerChars(settings, staticContextWindow(settings).tokens), signal, usage);
  const counter = new RequestTokenCounter(settings);
  const before = await counter.count({ messages: history });
  const after = await counter.count({ messages: [summaryMessage(summary), ...plan.kept] });
  return {
    role: 'answer',
    model: model.name,
    summary,
    messages: plan.older.length,
    historyMessages: plan.historyMessages,
    tokensBefore: before.tokens,
    tokensAfter: after.tokens,
    estimated: before.estimated,
    reason: 'manual',
    usage: usage.snapshot(),
  };
}
