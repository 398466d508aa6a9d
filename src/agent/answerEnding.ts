// How an answer ended, said to the user: cut at the token limit (with a way
// to continue), stopped by a content filter, or no answer text at all (only
// reasoning, or nothing whatever).
import type { AnswerOutcome } from './answerPhase';
import type { RunEmitter } from './runEmitter';

export function noticeAnswerEnding(outcome: AnswerOutcome, emitter: RunEmitter, maxTokens: number | undefined): void {
  if (outcome.reasoningOnly) {
    emitter.notice(
      'emptyAnswer',
      'warning',
      'The answer model wrote only reasoning and no answer, even when asked again. Its reasoning is shown above; another model, or a higher max tokens, may help.',
    );
    return;
  }
  if (!outcome.text.trim()) {
    const why = outcome.finishReason === 'length' ? ' It stopped at its token limit before writing any.' : outcome.finishReason === 'content_filter' ? " Its content filter stopped it." : '';
    emitter.notice('emptyAnswer', 'warning', `The answer model sent an empty reply: no answer to show.${why} Ask again, or choose another answer model.`);
    return;
  }
  if (outcome.finishReason === 'length') {
    const limit = maxTokens ? ` (max tokens ${maxTokens})` : '';
    emitter.notice('answerTruncated', 'warning', `The answer was cut off at the model's token limit${limit}.`, {
      label: 'Continue',
      command: 'tandem.continueAnswer',
    });
  } else if (outcome.finishReason === 'content_filter') {
    emitter.notice('contentFiltered', 'warning', "The model's content filter stopped the answer; what it wrote before is shown.");
  }
}
