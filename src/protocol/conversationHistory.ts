// What the models see of earlier turns: the user's prompts (with what was
// attached to them) and the final answers. Tool traffic stays in the run that
// produced it; a short record of what the run did (runRecord.ts) opens the
// next prompt, and so does a revert made since. Read straight from the stored
// stream: the prompt event and RUN_FINISHED's result; a `tandem.condensed`
// event replaces the turns it condensed with its summary, and a run the user
// asked again (`tandem.retried`) is left out, its question and answer both.
// The record goes inside the next user message, never as a message of its
// own, so the message counts a condensed event stored stay true.
import type { ChatMessage } from '../models/chatModel';
import { CustomEventName, type AgentEvent } from './agentEvents';
import { HostEventName } from './hostEventNames';
import { retriedRuns } from './retryTarget';
import { revertNote, RunRecord } from './runRecord';

const SUMMARY_HEADING = 'Summary of the earlier conversation (condensed by Tandem to fit the context window):';

/** How a condensed summary stands in for the turns it replaced: a system message after the rules. */
export function summaryMessage(summary: string): ChatMessage {
  return { role: 'system', content: `${SUMMARY_HEADING}\n\n${summary}` };
}

export function historyMessages(events: readonly AgentEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const retried = retriedRuns(events);
  let record: RunRecord | undefined;
  // The run being left out, while its events go by: what it did still happened (files it changed stay changed).
  let setAside: RunRecord | undefined;
  const since: string[] = [];
  for (const event of events) {
    if (event.type === 'CUSTOM' && event['name'] === HostEventName.userMessage) {
      const value = event['value'] as { text?: unknown; runId?: unknown; attached?: { text?: unknown } } | undefined;
      const text = value?.text;
      // Items attached to the prompt (context chips) follow the typed text.
      const attached = value?.attached?.text;
      if (typeof text === 'string' && text) {
        // How it ended does not matter once it is set aside; what it did to the workspace does.
        const didBefore = setAside?.describe(false);
        if (didBefore) since.push(`an earlier try at the question below, which the user set aside, did this: ${didBefore}`);
        setAside = undefined;
        if (typeof value?.runId === 'string' && retried.has(value.runId)) {
          setAside = new RunRecord();
          continue;
        }
        const prompt = promptWithAttachments(text, typeof attached === 'string' ? attached : undefined);
        messages.push({ role: 'user', content: withRecord(prompt, record?.describe(), since) });
        record = new RunRecord();
        since.length = 0;
      }
    } else if (event.type === 'CUSTOM' && event['name'] === HostEventName.runEdits) {
      const files = (event['value'] as { files?: unknown } | undefined)?.files;
      if (Array.isArray(files)) (setAside ?? record)?.changedFiles(files.filter((file): file is string => typeof file === 'string'));
    } else if (event.type === 'CUSTOM' && event['name'] === HostEventName.runReverted) {
      const files = (event['value'] as { files?: unknown } | undefined)?.files;
      const restored = Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : [];
      if (restored.length > 0) since.push(revertNote(restored));
    } else if (event.type === 'CUSTOM' && event['name'] === CustomEventName.condensed) {
      const value = event['value'] as { summary?: unknown; historyMessages?: unknown } | undefined;
      const replaced = typeof value?.historyMessages === 'number' ? Math.min(value.historyMessages, messages.length) : 0;
      if (replaced > 0 && typeof value?.summary === 'string') messages.splice(0, replaced, summaryMessage(value.summary));
    } else if (event.type === 'CUSTOM' && event['name'] === CustomEventName.steered && !setAside) {
      // Sent into the run: it follows the question it steered, in the same message (the message counts a condensed event stored stay true).
      const value = event['value'] as { text?: unknown; attached?: { text?: unknown } } | undefined;
      const last = messages.at(-1);
      if (typeof value?.text === 'string' && value.text && last?.role === 'user') {
        const attached = typeof value.attached?.text === 'string' ? value.attached.text : undefined;
        messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${steerContent(value.text, attached)}` };
      }
    } else if (setAside) {
      setAside.add(event); // its answer included: the models no longer see it
    } else if (event.type === 'RUN_FINISHED') {
      record?.add(event);
      const answer = (event['result'] as { answer?: unknown } | undefined)?.answer;
      if (typeof answer === 'string' && answer) messages.push({ role: 'assistant', content: answer });
    } else {
      record?.add(event);
    }
  }
  return messages;
}

/** The prompt, opened by what the previous run did and what happened since, when there is anything to say. */
function withRecord(prompt: string, record: string | undefined, since: readonly string[]): string {
  const notes = [record ? `What the previous run did: ${record}.` : '', since.length > 0 ? `Since then, ${since.join('; ')}.` : ''].filter(Boolean);
  return notes.length === 0 ? prompt : `[Tandem's record, not typed by the user] ${notes.join(' ')}\n\n${prompt}`;
}

const STEER_HEADING = 'The user sent this while you were working; take it into account from now on:';

/** What the models read of a message the user sent into a run while it went (steering.ts). */
export function steerContent(text: string, attached: string | undefined): string {
  return `${STEER_HEADING}\n\n${promptWithAttachments(text, attached)}`;
}

/** The typed prompt followed by the attached items' blocks: what the models read. */
export function promptWithAttachments(text: string, attached: string | undefined): string {
  return attached === undefined || attached === '' ? text : `${text}\n\n${attached}`;
}
