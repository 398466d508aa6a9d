// What the summarizer reads of the condensed messages: the images are not
// beside a summary, so what said they are attached stays out of its input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCondense, transcriptOf } from '../../../src/agent/condensePlan';
import { dropOlderImages, imagesMessage } from '../../../src/agent/toolImages';
import type { ChatMessage } from '../../../src/models/chatModel';

const image = { mimeType: 'image/png', data: 'AAAA' };
const description = '[image: image/png, 3 bytes; image 1 of this result]';

describe('the summary input', () => {
  it('leaves out the images message and the note that images were dropped; the results still describe the images', () => {
    const carrier = imagesMessage([{ toolName: 'browser__screenshot', images: [image] }])!;
    const task: ChatMessage = { role: 'user', content: 'Check the page.' };
    const messages: ChatMessage[] = [
      { role: 'system', content: 'rules' },
      task,
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'browser__screenshot', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: `The page.\n${description}` },
      carrier,
      { role: 'assistant', content: null, toolCalls: [{ id: 'c2', name: 'browser__screenshot', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c2', content: `The page again.\n${description}` },
      carrier,
    ];
    dropOlderImages(messages, 1);
    assert.match(messages[4]?.content ?? '', /no longer attached/, 'the older carrier says its image went');

    const plan = planCondense(messages, task, 1)!;
    assert.equal(plan.older.length, 3, 'the first exchange, its images message with it, is condensed');
    const transcript = transcriptOf(plan.older, 10_000);
    assert.doesNotMatch(transcript, /attached/);
    assert.doesNotMatch(transcript, /\[user\]/, 'an images-only message is left out, not shown empty');
    assert.ok(transcript.includes(description), transcript);
  });

  it('keeps the results of an envelope round, which share their message with the images', () => {
    const carrier = imagesMessage([{ toolName: 'shot', images: [image] }])!;
    const round: ChatMessage = { role: 'user', content: `Tool result for shot:\n${description}\n\n${carrier.content}`, images: carrier.images };
    assert.equal(transcriptOf([round], 10_000), `[user]\nTool result for shot:\n${description}`);
  });

  it("leaves the user's own words as they are", () => {
    const words = 'Look at  this:\n\n  the attached images are in my mail.  ';
    assert.equal(transcriptOf([{ role: 'user', content: words }], 10_000), `[user]\n${words}`);
  });
});
