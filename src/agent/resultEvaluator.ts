// Judges the tool results of one round. Empty or too-short results count as
// insufficient (the model is told, and the loop goes on); a custom evaluator
// may also declare the results sufficient, which ends the tool phase early.
import type { ToolResult } from '../tools/tool';

export interface EvaluatedResult {
  readonly toolName: string;
  readonly arguments: unknown;
  readonly result: ToolResult;
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
  const weak = round.filter(({ result }) => result.isError || result.text.trim().length < context.minResultLength);
  if (round.length > 0 && weak.length === round.length) {
    const names = weak.map((entry) => entry.toolName).join(', ');
    return {
      verdict: 'insufficient',
      reason: `The result of ${names} is empty, failed or shorter than ${context.minResultLength} characters.`,
    };
  }
  return { verdict: 'continue' };
};
