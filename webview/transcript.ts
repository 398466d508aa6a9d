// A conversation as Markdown, for `tandem.exportTranscript` (the JSON export is
// the event list itself). Pure: built from the same view model the panel shows.
import type { AgentEvent } from '../src/protocol/agentEvents';
import { condensedTitle, phaseLabel, prettyArguments, resultHeadline } from './stepText';
import type { TodoItem } from '../src/tools/tool';
import { createConversationView, type Step } from './steps';
import { conversationRow } from '../src/protocol/usageFormat';
import type { RunUsage } from '../src/protocol/agentEvents';
import { applyEvents } from './viewModel';

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function stepMarkdown(step: Step): string {
  const by = step.model ? ` (${step.model.model || step.model.role})` : '';
  switch (step.kind) {
    case 'user':
      return step.setAside ? `## You (asked again below; the models no longer see this try)\n\n${step.text}` : `## You\n\n${step.text}`;
    case 'steer':
      return `**You, while it worked** (sent into the run, read before its next step)\n\n${step.text}`;
    case 'thinking':
      return `**Thinking${by}**\n\n${quote(step.text)}`;
    case 'tool-call':
      return `**Tool call \`${step.name}\`${by}** — ${step.state}\n\n${fence(prettyArguments(step.argsText), 'json')}`;
    case 'tool-result':
      if (step.summary?.kind === 'todos') return `**Todo list** — ${resultHeadline(step)}\n\n${taskList(step.summary.items)}`;
      return `**Result of \`${step.name}\`** — ${resultHeadline(step)}\n\n${fence(step.content)}`;
    case 'answer':
      return step.messageKind === 'answer' ? `## Answer${by}\n\n${step.text}` : `**Update${by}**\n\n${step.text}`;
    case 'notice':
      return step.phase
        ? `_${step.phase.reason ?? 'Answer phase.'} (${phaseLabel(step.phase).models.join(' → ')})_`
        : `_${step.message}_`;
    case 'error':
      return `**Error:** ${step.message}${step.suggestion ? `\n\n${step.suggestion}` : ''}`;
    case 'elicitation':
      return `**Question from MCP server \`${step.serverName}\`** — ${step.status}: ${step.message}${step.url ? ` (${step.url})` : ''}`;
    case 'condensed':
      return `_${condensedTitle(step)}_\n\n${quote(step.summary)}`;
    case 'approval':
      return `**Approval for \`${step.tool}\`** — ${step.status}${step.alwaysAllowed ? ' (always allowed)' : ''}: ${step.summary}${step.status === 'rejected' && step.note ? `\n\n> The user said: ${step.note.replace(/\n/g, ' ')}` : ''}`;
  }
}

/** What the conversation cost, as the panel's "Chat" row counts it. */
function usageMarkdown(runs: readonly RunUsage[]): string {
  const total = conversationRow(runs);
  const { numbers } = total;
  const parts = [
    `${runs.length} ${runs.length === 1 ? 'run' : 'runs'}`,
    `${numbers.calls} model ${numbers.calls === 1 ? 'call' : 'calls'}${numbers.partialAttempts ? ` and ${numbers.partialAttempts} cut short` : ''}`,
    `${total.tokensIn} tokens in${numbers.cachedTokens ? ` (${numbers.cachedTokens} from the cache)` : ''}, ${total.tokensOut} out`,
    // The phases' time: the models' turns, and the tools and retry waits between them.
    `time in the phases ${total.time}`,
  ];
  parts.push(numbers.costUsd === undefined ? 'cost unknown (a model had no price)' : `estimated cost ${total.cost}`);
  return `## Usage\n\n${parts.join('; ')}.`;
}

/** `2026-11-27 18:28 UTC`: the same for whoever reads the file, wherever they are. */
function utcMinute(time: number): string {
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function transcriptMarkdown(title: string, events: readonly AgentEvent[], dates?: { readonly createdAt: number; readonly updatedAt: number }): string {
  const view = applyEvents(createConversationView(), events);
  const steps = view.steps.filter((step) => !((step.kind === 'answer' || step.kind === 'thinking') && step.discarded)).map(stepMarkdown);
  const runs = [...view.usageByRun.values()];
  const when = dates ? [`Started ${utcMinute(dates.createdAt)}; last used ${utcMinute(dates.updatedAt)}.`] : [];
  return [`# ${title || 'Tandem conversation'}`, ...when, ...steps, ...(runs.length > 0 ? [usageMarkdown(runs)] : [])].join('\n\n') + '\n';
}

/** A file name from the conversation's title: its words joined by '-' (no dots, so "…" or "app.js" cannot make an odd extension). */
export function transcriptFileName(title: string): string {
  const words = title
    .replace(/[^\p{L}\p{N}_]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return words || 'tandem-conversation';
}

/** A todo list as a Markdown task list. */
function taskList(items: readonly TodoItem[]): string {
  return items.map((item) => `- [${item.status === 'completed' ? 'x' : ' '}] ${item.title}${item.status === 'in_progress' ? ' (in progress)' : ''}`).join('\n');
}
