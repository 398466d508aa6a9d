// CUSTOM event names the host adds to a conversation's stream besides the
// loop's own, so a stored conversation replays from one event list. Kept in
// its own dependency-free file so the webview bundle does not pull in zod.
export const HostEventName = {
  /** The user's prompt: `{ text }`. */
  userMessage: 'tandem.userMessage',
  /** A run changed files that can be reverted: `{ runId, files }`. */
  runEdits: 'tandem.runEdits',
  /** The edits of a run were reverted: `{ runId, files, skipped, remaining }` (`remaining`: files whose restore failed, still revertable). */
  runReverted: 'tandem.runReverted',
  /** The user asked the run's question again (Retry): `{ runId }`. The models no longer see that run; the panel still shows it. */
  retried: 'tandem.retried',
  /** The window went (reload, close) with messages queued: `{ texts }`, taken up again, held, when it opens this conversation next. */
  followUpsLeft: 'tandem.followUpsLeft',
} as const;
