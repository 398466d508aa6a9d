import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSettings, withScheme } from '../../../src/agent/agentSettings';

describe('resolveSettings', () => {
  it('gives the documented defaults with nothing set', () => {
    const { settings, warnings } = resolveSettings({}, {});
    assert.deepEqual(warnings, []);
    assert.equal(settings.functionCallModel.baseUrl, 'https://api.openai.com/v1');
    assert.equal(settings.maxIterations, 5);
    assert.equal(settings.maxExecutionSeconds, 60);
    assert.equal(settings.mode, 'agent');
    assert.equal(settings.responseMode, 'integrated');
    assert.equal(settings.nonToolReply, 'answer');
    assert.equal(settings.autoApprove, 'readOnly');
    assert.equal(settings.singleModel, true);
    assert.equal(settings.answerModel, settings.functionCallModel);
  });

  it('replaces each bad value with its default (a number past a bound with that bound) and says so, keeping the good ones', () => {
    const { settings, warnings } = resolveSettings(
      { 'agent.maxIterations': 50, 'agent.maxExecutionSeconds': 5, 'agent.mode': 'turbo', 'functionCallModel.baseUrl': 'not a url', 'agent.responseMode': 'streaming' },
      {},
    );
    assert.equal(settings.maxIterations, 10);
    assert.equal(settings.maxExecutionSeconds, 10);
    assert.ok(warnings.includes('tandem.agent.maxIterations = 50 is out of range (1 to 10); using 10.'), warnings.join('\n'));
    assert.ok(warnings.includes('tandem.agent.maxExecutionSeconds = 5 is out of range (10 to 300); using 10.'), warnings.join('\n'));
    assert.equal(resolveSettings({ 'agent.maxIterations': 2.5 }, {}).settings.maxIterations, 5, 'not a whole number: the default');
    assert.equal(resolveSettings({ 'functionCallModel.temperature': 3 }, {}).settings.functionCallModel.temperature, 2);
    assert.equal(resolveSettings({ 'functionCallModel.maxTokens': 0 }, {}).settings.functionCallModel.maxTokens, 2048, 'a floor alone is no range: the default, not 1 token');
    assert.equal(settings.mode, 'agent');
    // A bad base URL is kept, never replaced by OpenAI's: the conversation would go where the user did not mean.
    assert.equal(settings.functionCallModel.baseUrl, 'not a url');
    assert.equal(settings.responseMode, 'streaming');
    assert.equal(warnings.length, 4);
    assert.match(warnings[0]!, /tandem\.functionCallModel\.baseUrl = "not a url" is invalid .*Tandem sends no request until it is fixed/);
  });

  it('reads a base URL typed without its scheme with the one a server there would use, and says so', () => {
    const { settings, warnings } = resolveSettings(
      { 'functionCallModel.baseUrl': 'localhost:11434/v1', 'answerModel.model': 'big', 'answerModel.baseUrl': 'api.example.com/v1' },
      {},
    );
    assert.equal(settings.functionCallModel.baseUrl, 'http://localhost:11434/v1');
    assert.equal(settings.answerModel.baseUrl, 'https://api.example.com/v1');
    assert.match(warnings[0]!, /"localhost:11434\/v1" has no scheme; read as "http:\/\/localhost:11434\/v1"/);
    assert.equal(withScheme('192.168.1.20:1234/v1'), 'http://192.168.1.20:1234/v1');
    assert.equal(withScheme('[::1]:8080'), 'http://[::1]:8080');
    assert.equal(withScheme('gpu-box:11434/v1'), 'http://gpu-box:11434/v1');
    assert.equal(withScheme('not a url'), undefined);
    assert.equal(withScheme('ftp://host/v1'), undefined);
  });

  it('a list or map with a bad entry keeps its good ones', () => {
    const { settings, warnings } = resolveSettings(
      {
        'tools.sensitivePaths': ['secrets/**', ''],
        'tools.alwaysAllow': ['write_file', 42],
        pricing: { 'my-local': { input: 0.1, output: 0.2 }, broken: { input: 'cheap' } },
        'agent.rulesFiles': [''],
      },
      {},
    );
    assert.deepEqual(settings.sensitivePaths, ['secrets/**']);
    assert.deepEqual(settings.alwaysAllow, ['write_file']);
    assert.deepEqual(settings.pricing, { 'my-local': { input: 0.1, output: 0.2 } });
    // Nothing good left: the default, as for any bad value.
    assert.deepEqual(settings.rulesFiles, ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.clinerules', '.clinerules/*.md', '.cursorrules', '.github/instructions/*.instructions.md', '.tandem/rules/*.md']);
    assert.ok(warnings.some((warning) => /tandem\.tools\.sensitivePaths: entry 2 \(""\) is invalid and left out; the other entries apply/.test(warning)), warnings.join('\n'));
    assert.ok(warnings.some((warning) => /tandem\.pricing: "broken" \(/.test(warning)), warnings.join('\n'));
    assert.equal(warnings.length, 4);
  });

  it('matches a choice without regard to case', () => {
    const { settings, warnings } = resolveSettings({ 'agent.mode': 'Chat', 'tools.autoApprove': ' READONLY ' }, {});
    assert.equal(settings.mode, 'chat');
    assert.equal(settings.autoApprove, 'readOnly');
    assert.deepEqual(warnings, []);
  });

  it('takes the spec environment variables where the user set nothing', () => {
    const env = {
      AGENT_FUNCTION_CALL_MODEL: '{"baseUrl": "http://127.0.0.1:11434/v1", "model": "qwen3", "temperature": 0.1}',
      AGENT_ANSWER_MODEL: '{"model": "llama3.3", "maxTokens": 999}',
      AGENT_MAX_ITERATIONS: '7',
      AGENT_MAX_EXECUTION_TIME: '120',
      AGENT_VERBOSE: 'true',
    };
    const { settings, warnings } = resolveSettings({ 'agent.maxIterations': 3 }, env);
    assert.deepEqual(warnings, []);
    assert.equal(settings.functionCallModel.model, 'qwen3');
    assert.equal(settings.functionCallModel.temperature, 0.1);
    assert.equal(settings.answerModel.model, 'llama3.3');
    assert.equal(settings.answerModel.baseUrl, 'http://127.0.0.1:11434/v1', 'the answer model inherits the base URL');
    assert.equal(settings.answerModel.maxTokens, 999);
    assert.equal(settings.singleModel, false);
    assert.equal(settings.maxIterations, 3, 'the explicit setting wins');
    assert.equal(settings.maxExecutionSeconds, 120);
    assert.equal(settings.verbose, true);
  });

  it('reports a broken environment variable and ignores it', () => {
    const { settings, warnings } = resolveSettings({}, { AGENT_FUNCTION_CALL_MODEL: '{model: x}', AGENT_MAX_ITERATIONS: 'many', OPENAI_BASE_URL: 'http://localhost:1234/v1' });
    assert.equal(settings.functionCallModel.model, 'gpt-4o-mini');
    assert.equal(settings.functionCallModel.baseUrl, 'http://localhost:1234/v1');
    assert.equal(settings.maxIterations, 5);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /AGENT_FUNCTION_CALL_MODEL is not valid JSON/);
  });

  it('says when answer-model settings are set without an answer model name, and when AGENT_VERBOSE is neither true nor false', () => {
    const { settings, warnings } = resolveSettings({ 'answerModel.baseUrl': 'http://localhost:11434/v1', 'answerModel.contextWindow': 8192 }, { AGENT_VERBOSE: 'maybe' });
    assert.equal(settings.singleModel, true);
    assert.deepEqual(warnings, [
      'AGENT_VERBOSE = "maybe" is neither true nor false; read as false.',
      'tandem.answerModel.baseUrl, tandem.answerModel.contextWindow are set but tandem.answerModel.model is empty, so one model (tandem.functionCallModel.*) serves both phases and they are not used. Set tandem.answerModel.model to use a second model.',
    ]);
    const fromEnvironment = resolveSettings({}, { AGENT_ANSWER_MODEL: '{"baseUrl":"http://localhost:8000/v1"}' });
    assert.match(fromEnvironment.warnings.join('\n'), /tandem\.answerModel\.baseUrl is set but tandem\.answerModel\.model is empty/);
    assert.deepEqual(resolveSettings({ 'answerModel.baseUrl': '', 'answerModel.contextWindow': 0 }).warnings, [], 'the defaults say nothing');
  });

  it('validates the pricing table entry by entry', () => {
    const { settings, warnings } = resolveSettings({ pricing: { good: { input: 1, output: 2 } } }, {});
    assert.deepEqual(settings.pricing, { good: { input: 1, output: 2 } });
    assert.deepEqual(warnings, []);
    const bad = resolveSettings({ pricing: { bad: { input: -1, output: 2 } } }, {});
    assert.deepEqual(bad.settings.pricing, {});
    assert.equal(bad.warnings.length, 1);
  });
});
