import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerBaseUrlSetting, modelProblem, needsProbe, problemsKnownBeforeRequests, unlistedModel, usabilityProblems } from '../../../src/models/modelUsability';

const openAi = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };
const local = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' };

describe('model usability', () => {
  it("OpenAI's host without a key is unusable and never probed", () => {
    assert.equal(needsProbe(openAi), false);
    assert.deepEqual(modelProblem({ settings: openAi, hasKey: false }), {
      reason: 'noKey',
      target: 'https://api.openai.com/v1',
      message: 'No API key for https://api.openai.com/v1.',
    });
    assert.equal(modelProblem({ settings: openAi, hasKey: true }), undefined);
  });

  it('any other base URL is usable once something answers there, key or not', () => {
    assert.equal(needsProbe(local), true);
    assert.equal(modelProblem({ settings: local, hasKey: false, reachable: true }), undefined);
    assert.equal(modelProblem({ settings: local, hasKey: false, reachable: false })?.reason, 'unreachable');
    const page = modelProblem({ settings: local, hasKey: false, reachable: true, webPage: true });
    assert.equal(page?.reason, 'notAnApi');
    assert.match(page?.message ?? '', /answers with a web page, not an OpenAI-compatible API: check the base URL .*ends in \/v1/);
    // Not probed yet: not declared unusable.
    assert.equal(modelProblem({ settings: local, hasKey: false }), undefined);
  });

  it('a base URL that is not one is unusable, says which setting to fix, and is never probed', () => {
    const bad = { baseUrl: 'localhost 11434', model: 'llama3.2' };
    assert.equal(needsProbe(bad), false);
    const problem = modelProblem({ settings: bad, hasKey: true });
    assert.equal(problem?.reason, 'badBaseUrl');
    assert.match(problem?.message ?? '', /"localhost 11434" is not an http\(s\) URL, so nothing is sent: fix tandem\.functionCallModel\.baseUrl/);
  });

  it("names the answer model's own setting when its base URL is its own, else the function-call model's it falls back to", () => {
    const answer = { baseUrl: 'http://127.0.0.1:9/v1', model: 'big' };
    const own = answerBaseUrlSetting(answer.baseUrl, local.baseUrl);
    assert.equal(own, 'tandem.answerModel.baseUrl');
    const problem = modelProblem({ settings: answer, hasKey: false, reachable: false, baseUrlSetting: own });
    assert.equal(problem?.setting, 'tandem.answerModel.baseUrl');
    assert.match(problem?.message ?? '', /change the base URL \(tandem\.answerModel\.baseUrl\)/);
    assert.doesNotMatch(problem?.message ?? '', /functionCallModel/);
    const page = modelProblem({ settings: answer, hasKey: false, reachable: true, webPage: true, baseUrlSetting: own });
    assert.match(page?.message ?? '', /\(tandem\.answerModel\.baseUrl;/);
    const shared = answerBaseUrlSetting(local.baseUrl, local.baseUrl);
    assert.equal(shared, 'tandem.functionCallModel.baseUrl');
    assert.equal(modelProblem({ settings: local, hasKey: false, reachable: false, baseUrlSetting: shared })?.setting, 'tandem.functionCallModel.baseUrl');
  });

  it("provider vscode needs VS Code to offer the model, whatever the base URL", () => {
    const vscodeModel = { ...openAi, provider: 'vscode' as const, model: 'copilot-gpt-4o' };
    assert.equal(needsProbe(vscodeModel), false);
    assert.equal(modelProblem({ settings: vscodeModel, hasKey: false, vscodeModelFound: true }), undefined);
    assert.equal(modelProblem({ settings: vscodeModel, hasKey: false, vscodeModelFound: false })?.message, 'VS Code offers no language model "copilot-gpt-4o".');
    assert.equal(modelProblem({ settings: { ...vscodeModel, model: '' }, hasKey: false, vscodeModelFound: false })?.message, 'VS Code offers no language models.');
  });

  it('says each problem once when both phases share an endpoint', () => {
    const problems = usabilityProblems([
      { settings: openAi, hasKey: false },
      { settings: { ...openAi, model: 'gpt-4o' }, hasKey: false },
      { settings: local, hasKey: false, reachable: false },
    ]);
    assert.deepEqual(problems.map((problem) => problem.reason), ['noKey', 'unreachable']);
  });
});

describe('a model the server does not list', () => {
  it('is named, unless the server lists nothing or lists it (Ollama: name for name:latest)', () => {
    assert.equal(unlistedModel('gpt-4o-mni', ['gpt-4o-mini', 'gpt-4o']), 'gpt-4o-mni');
    assert.equal(unlistedModel('gpt-4o-mini', ['gpt-4o-mini', 'gpt-4o']), undefined);
    assert.equal(unlistedModel('qwen2.5', ['qwen2.5:latest', 'llama3.1:8b']), undefined);
    assert.equal(unlistedModel('qwen2.5:latest', ['qwen2.5:latest']), undefined);
    assert.equal(unlistedModel('llama3.1', ['llama3.1:8b']), 'llama3.1', 'only :latest stands for the bare name');
    assert.equal(unlistedModel('anything', []), undefined, 'a server that lists nothing (or needs a key to) says nothing');
    assert.equal(unlistedModel('', ['a']), undefined);
  });
});


describe('what is wrong before any request (the AG-UI endpoint)', () => {
  const openAi = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };
  const local = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3' };
  it('names OpenAI\'s host without a key, and a base URL that is not one; a local server is asked nothing', () => {
    const run = (functionCallModel: object, answerModel: object, mode: 'agent' | 'chat' = 'agent', singleModel = false) =>
      problemsKnownBeforeRequests({ mode, singleModel, functionCallModel: functionCallModel as never, answerModel: answerModel as never }).map((problem) => problem.message);
    assert.deepEqual(run(openAi, local), ['No API key for https://api.openai.com/v1.']);
    assert.deepEqual(run({ ...openAi, apiKey: 'k' }, local), []);
    // Chat mode calls only the answer model.
    assert.deepEqual(run(openAi, local, 'chat'), []);
    assert.deepEqual(run(local, { ...local, baseUrl: 'my server' }), ['The base URL "my server" is not an http(s) URL, so nothing is sent: fix tandem.answerModel.baseUrl.']);
    // One model for both phases: said once.
    assert.deepEqual(run(openAi, openAi, 'chat', true), ['No API key for https://api.openai.com/v1.']);
    // VS Code's own models are the host's to check.
    assert.deepEqual(run({ ...openAi, provider: 'vscode' }, { ...openAi, provider: 'vscode' }), []);
  });
});
