// Judges the tool results of one round. Empty or too-short results count as
// insufficient (the model is told, and the loop goes on); a custom evaluator
// may also declare the results sufficient, which ends the tool phase early.
import type { ToolResult } from '../tools/tool';

export interface EvaluatedResult {
  readonly toolName: string;
  readonly arguments: unknown;
  readonly result: ToolResult;
  /** A tool that changes something (an edit, a command): its short "done" is a whole answer, not too little. */
  readonly changes?: boolean | undefined;
}

export type Evaluation =
  | { readonly verdict: 'continue' }
  | { readonly verdict: 'insufficient'; readonly reason: string }
  | { readonly verdict: 'sufficient'; readonly reason: string };

export interface EvaluationContext {
  /** The user's question. */
  readonly question: string;
  /** Every result gathered so far in this run, oldest first. */
  readonly allResults: readonly EvaluatedResult[];
  readonly minResultLength: number;
}

export type ResultEvaluator = (round: readonly EvaluatedResult[], context: EvaluationContext) => Evaluation;

/** The default: flags empty, failed or short results; leaves sufficiency to the model. */
export const lengthEvaluator: ResultEvaluator = (round, context) => {
  const weak = round.filter(({ result, changes }) => result.isError || (changes !== true && result.text.trim().length < context.minResultLength));
  if (round.length > 0 && weak.length === round.length) {
    // Say which way each fell short: a failure's own text already says why, a short result does not.
    const failed = weak.filter((entry) => entry.result.isError).map((entry) => entry.toolName);
    const short = weak.filter((entry) => !entry.result.isError).map((entry) => entry.toolName);
    const parts = [
      failed.length > 0 ? `${unique(failed).join(', ')} failed` : '',
      short.length > 0 ? `${unique(short).join(', ')} returned little or nothing (under ${context.minResultLength} characters)` : '',
    ].filter(Boolean);
    return { verdict: 'insufficient', reason: `${parts.join('; ')}.` };
  }
  return { verdict: 'continue' };
};

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
