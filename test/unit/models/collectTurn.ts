// Drains a model call: every delta it yielded and the turn it returned.

import type { ModelDelta, ModelTurn } from '../../../src/models/chatModel';

export interface CollectedTurn {
  readonly deltas: ModelDelta[];
  readonly turn: ModelTurn;
}

export async function collectTurn(generator: AsyncGenerator<ModelDelta, ModelTurn, void>): Promise<CollectedTurn> {
  const deltas: ModelDelta[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { deltas, turn: next.value };
    deltas.push(next.value);
  }
}

/** Text as a consumer sees it: partial output before a retry is dropped. */
export function visibleText(deltas: readonly ModelDelta[]): string {
  let text = '';
  for (const delta of deltas) {
    if (delta.type === 'retry') text = '';
    else if (delta.type === 'text') text += delta.delta;
  }
  return text;
}
