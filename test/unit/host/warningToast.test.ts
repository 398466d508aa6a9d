// The toast for settings warnings names, and opens, the setting that fixes
// each: the one its producer says, not the first its text happens to mention.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSettings } from '../../../src/agent/agentSettings';
import { aboutSetting, warningToast } from '../../../src/host/warningToast';

describe('warning toast', () => {
  it('one warning is shown as it is and offers to open its setting', () => {
    const { settingsWarnings } = resolveSettings({ 'functionCallModel.baseUrl': 'localhost:11434/v1' }, {});
    assert.equal(settingsWarnings.length, 1);
    const toast = warningToast(settingsWarnings);
    assert.equal(toast.text, 'Tandem: tandem.functionCallModel.baseUrl = "localhost:11434/v1" has no scheme; read as "http://localhost:11434/v1".');
    assert.deepEqual(toast.settings, ['tandem.functionCallModel.baseUrl']);
    assert.equal(toast.open, 'Open Setting');
    assert.equal(toast.showAll, false);
  });

  it('a warning naming two settings opens the one that fixes it, the second it names', () => {
    const { settingsWarnings } = resolveSettings({ 'answerModel.baseUrl': 'http://127.0.0.1:1234/v1' }, {});
    const [unused] = settingsWarnings;
    assert.match(unused?.message ?? '', /^tandem\.answerModel\.baseUrl is set but tandem\.answerModel\.model is empty/);
    assert.equal(unused?.setting, 'tandem.answerModel.model');
    assert.deepEqual(warningToast(settingsWarnings).settings, ['tandem.answerModel.model']);
  });

  it('several share one toast, naming each setting once, with the first warning and the whole log', () => {
    const { settingsWarnings } = resolveSettings(
      { 'functionCallModel.baseUrl': '127.0.0.1:9/v1', 'answerModel.baseUrl': '127.0.0.1:9/v1', 'agent.maxIterations': 0, 'agent.maxExecutionSeconds': 5000 },
      {},
    );
    const toast = warningToast(settingsWarnings);
    assert.deepEqual(toast.settings, ['tandem.functionCallModel.baseUrl', 'tandem.answerModel.model', 'tandem.agent.maxIterations', 'tandem.agent.maxExecutionSeconds']);
    assert.equal(
      toast.text,
      `Tandem: 4 warnings (tandem.functionCallModel.baseUrl, tandem.answerModel.model, tandem.agent.maxIterations, tandem.agent.maxExecutionSeconds). ${settingsWarnings[0]?.message} …`,
    );
    assert.equal(toast.open, 'Open Settings');
    assert.equal(toast.showAll, true);
  });

  it('several about one setting offer to open that one', () => {
    const toast = warningToast([
      { message: 'first', setting: 'tandem.pricing' },
      { message: 'second', setting: 'tandem.pricing' },
    ]);
    assert.equal(toast.text, 'Tandem: 2 warnings (tandem.pricing). first …');
    assert.deepEqual(toast.settings, ['tandem.pricing']);
    assert.equal(toast.open, 'Open Setting');
  });

  it('a warning no setting fixes offers none; a producer that says so is believed over its text', () => {
    const { settingsWarnings } = resolveSettings({}, { AGENT_FUNCTION_CALL_MODEL: '{not json' });
    assert.deepEqual(settingsWarnings, [{ message: 'AGENT_FUNCTION_CALL_MODEL is not valid JSON; it is ignored.' }]);
    assert.equal(warningToast(settingsWarnings).open, undefined);
    assert.equal(aboutSetting({ message: 'see tandem.agent.mode' }).setting, undefined, 'the producer said: none');
    const toast = warningToast([{ message: 'first' }, { message: 'second' }]);
    assert.equal(toast.text, 'Tandem: 2 warnings. first …');
    assert.equal(toast.open, undefined);
    assert.equal(toast.showAll, true);
  });

  it('a bare text is read for the first setting it names', () => {
    assert.deepEqual(aboutSetting('tandem.agui.port = 70000 is invalid (too big); using the default 0.'), {
      message: 'tandem.agui.port = 70000 is invalid (too big); using the default 0.',
      setting: 'tandem.agui.port',
    });
    assert.equal(aboutSetting('mcp: server "x" exited').setting, undefined);
  });

  it('keeps the plain warnings as the same texts', () => {
    const result = resolveSettings({ 'functionCallModel.baseUrl': 'localhost:1/v1', 'answerModel.maxTokens': 10 }, { AGENT_VERBOSE: 'maybe' });
    assert.deepEqual(result.warnings, result.settingsWarnings.map(({ message }) => message));
    assert.equal(result.warnings.length, 3);
  });
});
