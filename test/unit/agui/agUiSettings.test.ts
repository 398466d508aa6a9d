// The endpoint's settings and the headless settings file: the same keys as
// settings.json, validated per key; a bad value is named and loses nothing else.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DEFAULT_AGUI_PORT, resolveAgUiSettings } from '../../../src/agui/agUiSettings';
import { parseSettingsText } from '../../../src/headless/settingsFile';

it('validates tandem.agui.* per key and falls back to the defaults', () => {
  assert.deepEqual(resolveAgUiSettings({}).settings, { enabled: false, port: DEFAULT_AGUI_PORT, allowedOrigins: [] });
  const { settings, warnings } = resolveAgUiSettings({ 'agui.enabled': true, 'agui.port': 70000, 'agui.allowedOrigins': ['HTTP://LocalHost:3000'] });
  assert.deepEqual(settings, { enabled: true, port: DEFAULT_AGUI_PORT, allowedOrigins: ['http://localhost:3000'] });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /tandem\.agui\.port = 70000 is invalid/);
  const origins = resolveAgUiSettings({ 'agui.allowedOrigins': ['http://localhost:3000/app'] });
  assert.deepEqual(origins.settings.allowedOrigins, []);
  assert.match(origins.warnings[0]!, /without a path/);
});

it('reads a settings file with tandem.* keys (JSONC), the environment where it is silent', () => {
  const text = `{
    // comments are fine, as in settings.json
    "tandem.functionCallModel.model": "fc",
    "tandem.agent.maxIterations": 0,
    "tandem.agui.port": 9000,
    "tandem.nope": 1,
    "editor.fontSize": 14,
  }`;
  const loaded = parseSettingsText(text, 'settings.json', { OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1', AGENT_MAX_EXECUTION_TIME: '30' });
  assert.equal(loaded.agent.functionCallModel.model, 'fc');
  assert.equal(loaded.agent.functionCallModel.baseUrl, 'http://127.0.0.1:1234/v1');
  assert.equal(loaded.agent.maxExecutionSeconds, 30);
  assert.equal(loaded.agent.maxIterations, 1);
  assert.equal(loaded.agui.port, 9000);
  assert.equal(loaded.aguiPortSet, true);
  assert.ok(loaded.warnings.some((warning) => /tandem\.nope is not a Tandem setting/.test(warning)));
  assert.ok(loaded.warnings.some((warning) => /tandem\.agent\.maxIterations = 0 is out of range \(1 to 10\); using 1\./.test(warning)));
  assert.ok(!loaded.warnings.some((warning) => /editor\.fontSize/.test(warning)));
  assert.throws(() => parseSettingsText('{ "tandem.agent.mode": ', 'broken.json'), /broken\.json is not valid JSON/);
  // Where the mistake is, as an editor shows it: a line and a column, not a character offset.
  assert.throws(
    () => parseSettingsText('{\n  "tandem.agent.mode": "agent",\n  "tandem.agent.maxIterations": 5,,\n}', 'broken.json'),
    /broken\.json is not valid JSON: PropertyNameExpected at line 3, column 35/,
  );
  assert.throws(() => parseSettingsText('[1]', 'list.json'), /top level must be an object/);
});
