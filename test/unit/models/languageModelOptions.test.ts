// Provider `vscode` without VS Code: the modelOptions Tandem sends, and the
// too-long-input error a VS Code language model throws being recognised.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isContextOverflow } from '../../../src/models/contextOverflow';
import { languageModelOptions } from '../../../src/models/languageModelOptions';

describe('provider vscode', () => {
  it('sends temperature and max tokens as modelOptions temperature and max_tokens', () => {
    assert.deepEqual(languageModelOptions({ temperature: 0.25, maxTokens: 777 }, 'fake-lm-1', 'fake-family'), { temperature: 0.25, max_tokens: 777 });
    assert.deepEqual(languageModelOptions({ temperature: 0, maxTokens: undefined }, 'claude-sonnet-4'), { temperature: 0 });
    assert.equal(languageModelOptions({ temperature: undefined, maxTokens: undefined }, 'gpt-4o'), undefined);
    // 0 max tokens means "not set" in Tandem's settings, not "reply with nothing".
    assert.equal(languageModelOptions({ temperature: undefined, maxTokens: 0 }, 'gpt-4o'), undefined);
  });

  it('sends no temperature to an OpenAI reasoning model, by id or by family', () => {
    assert.deepEqual(languageModelOptions({ temperature: 0, maxTokens: 2048 }, 'gpt-5', 'gpt-5'), { max_tokens: 2048 });
    assert.deepEqual(languageModelOptions({ temperature: 0.3, maxTokens: 100 }, 'copilot-o3-mini-id', 'o3-mini'), { max_tokens: 100 });
  });

  it('recognises "Message exceeds token limit." (Copilot Chat, providers on VS Code\'s sample) as a context overflow', () => {
    assert.equal(isContextOverflow(new Error('Message exceeds token limit.')), true);
    // What a consumer receives after the trip through the main thread: the message survives.
    assert.equal(isContextOverflow({ name: 'Error', message: 'Message exceeds token limit.' }), true);
    assert.equal(isContextOverflow(new Error('Cannot have more than 128 tools per request.')), false);
    assert.equal(isContextOverflow(new Error('The extension has been temporarily blocked due to making too many requests. Please try again later.')), false);
  });
});
