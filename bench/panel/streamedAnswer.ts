// A long Markdown answer for the streaming benchmark: paragraphs, headings,
// lists, code fences and tables, as a model writes them. Every word is a
// numbered marker `t<k>` so the panel's DOM can be read back as "which token
// has arrived": the probe times each marker, and the final text must hold
// t0..tN-1 in order. The tokens are exactly the scripted server's chunks.
import { splitTokens } from '../../test/fixtures/scriptedModelReplies';

export interface StreamedAnswer {
  /** The whole answer, as the server streams it. */
  readonly content: string;
  /** How many chunks the server splits it into (its tokens). */
  readonly tokens: number;
  /** For each marker k, the index of the token that carries it. */
  readonly markerToken: readonly number[];
}

/** An answer of about `tokenCount` tokens (it stops after the block that reaches the count). */
export function streamedAnswer(tokenCount: number): StreamedAnswer {
  let marker = 0;
  const word = () => `t${marker++}`;
  const words = (count: number) => Array.from({ length: count }, word).join(' ');
  const blocks: string[] = [];
  let tokens = 0;
  for (let block = 0; tokens < tokenCount; block++) {
    let text: string;
    switch (block % 8) {
      case 0:
        text = `## ${words(4)}`;
        break;
      case 3:
        text = Array.from({ length: 5 }, () => `- ${words(6)} **${word()}** ${words(3)}`).join('\n');
        break;
      case 5:
        text = `\`\`\`ts\n${Array.from({ length: 8 }, () => `const ${word()} = ${word()}(${word()});`).join('\n')}\n\`\`\``;
        break;
      case 7:
        text = `| ${word()} | ${word()} |\n| --- | --- |\n${Array.from({ length: 4 }, () => `| ${word()} | ${words(3)} |`).join('\n')}`;
        break;
      default:
        text = `${words(30)} \`${word()}\` ${words(25)} *${word()}* ${words(20)}.`;
    }
    blocks.push(text);
    tokens = splitTokens(blocks.join('\n\n')).length;
  }
  const content = blocks.join('\n\n');
  const markerToken: number[] = [];
  splitTokens(content).forEach((token, index) => {
    for (const match of token.matchAll(/t(\d+)/g)) markerToken[Number(match[1])] = index;
  });
  return { content, tokens: splitTokens(content).length, markerToken };
}

/** The marker numbers in a text, in the order they appear. */
export function markersIn(text: string): number[] {
  return [...text.matchAll(/t(\d+)/g)].map((match) => Number(match[1]));
}
