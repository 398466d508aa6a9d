// What Retry needs to know, read from the stored events. Which question it
// asks again: the conversation's last, once its run has ended. Not after a
// summary condensed since (Tandem: Condense Conversation): it counts the
// messages it replaced, the run's own among them, so leaving the run out would
// shift what it stands for. One the run made itself replaced only turns
// before it, and stays.
import { CustomEventName, type AgentEvent } from './agentEvents';
import { HostEventName } from './hostEventNames';

export interface RetryTarget {
  readonly runId: string;
  readonly text: string;
  /** The context items sent with it, as they were read then. */
  readonly attached: { readonly labels: readonly string[]; readonly text: string } | undefined;
  /** The mode it ran in when not the setting's (a prompt file's `mode: ask`): the next try takes it too. */
  readonly mode?: 'agent' | 'chat' | undefined;
  /** The only tools it could use, by the names its slash command gave (`tools:`): the next try too. */
  readonly tools?: readonly string[] | undefined;
}

export function retryTarget(events: readonly AgentEvent[]): RetryTarget | undefined {
  let ended = false;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!;
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') ended = true;
    if (event.type !== 'CUSTOM') continue;
    if ((event['name'] === CustomEventName.condensed && !ended) || event['name'] === HostEventName.retried) return undefined;
    if (event['name'] !== HostEventName.userMessage) continue;
    const value = event['value'] as { text?: unknown; runId?: unknown; attached?: { labels?: unknown; text?: unknown }; mode?: unknown; tools?: unknown } | undefined;
    if (!ended || typeof value?.runId !== 'string' || typeof value.text !== 'string' || !value.text) return undefined;
    const attached = value.attached;
    const labels = Array.isArray(attached?.labels) ? attached.labels.filter((label): label is string => typeof label === 'string') : [];
    return {
      runId: value.runId,
      text: value.text,
      attached: typeof attached?.text === 'string' ? { labels, text: attached.text } : undefined,
      ...((value.mode === 'agent' || value.mode === 'chat') && { mode: value.mode }),
      ...(Array.isArray(value.tools) && { tools: value.tools.filter((name): name is string => typeof name === 'string') }),
    };
  }
  return undefined;
}

/** The messages the user sent into `runId` while it went (Steer), in order: Retry sends them into the next try too. */
export function steeredInto(events: readonly AgentEvent[], runId: string): { readonly text: string; readonly attached: { readonly labels: readonly string[]; readonly text: string } | undefined }[] {
  const steered = [];
  for (const event of events) {
    if (event.type !== 'CUSTOM' || event['name'] !== CustomEventName.steered) continue;
    const value = event['value'] as { runId?: unknown; text?: unknown; attached?: { labels?: unknown; text?: unknown } } | undefined;
    if (value?.runId !== runId || typeof value.text !== 'string' || value.text === '') continue;
    const labels = Array.isArray(value.attached?.labels) ? value.attached.labels.filter((label): label is string => typeof label === 'string') : [];
    steered.push({ text: value.text, attached: typeof value.attached?.text === 'string' ? { labels, text: value.attached.text } : undefined });
  }
  return steered;
}

/** The runs the user asked again (Retry, Edit): the models no longer see them. */
export function retriedRuns(events: readonly AgentEvent[]): Set<string> {
  const runs = new Set<string>();
  for (const event of events) {
    if (event.type !== 'CUSTOM' || event['name'] !== HostEventName.retried) continue;
    const runId = (event['value'] as { runId?: unknown } | undefined)?.runId;
    if (typeof runId === 'string') runs.add(runId);
  }
  return runs;
}

/** Whether `runId` asks the conversation's first question still standing (every one before it was asked again). */
export function opensConversation(events: readonly AgentEvent[], runId: string): boolean {
  const retried = retriedRuns(events);
  for (const event of events) {
    if (event.type !== 'CUSTOM' || event['name'] !== HostEventName.userMessage) continue;
    const asked = (event['value'] as { runId?: unknown } | undefined)?.runId;
    if (asked === runId) return true;
    if (typeof asked !== 'string' || !retried.has(asked)) return false;
  }
  return false;
}

/** The files `runId` changed that are not reverted (as the panel's revert bar names them). */
export function editsInPlace(events: readonly AgentEvent[], runId: string): readonly string[] {
  let files: readonly string[] = [];
  for (const event of events) {
    if (event.type !== 'CUSTOM') continue;
    const value = event['value'] as { runId?: unknown; files?: unknown; remaining?: unknown } | undefined;
    if (value?.runId !== runId) continue;
    if (event['name'] === HostEventName.runEdits && Array.isArray(value.files)) files = value.files.filter((file): file is string => typeof file === 'string');
    else if (event['name'] === HostEventName.runReverted) files = Array.isArray(value.remaining) ? value.remaining.filter((file): file is string => typeof file === 'string') : [];
  }
  return files;
}
