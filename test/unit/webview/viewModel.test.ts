// The panel's reducer fed with real streams: the loop runs through the real
// openai SDK against the scripted model server, and the view model must show
// what the server sent — steps, model labels, the answer and the usage.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runScripted, scriptedServers, settingsFor, TableTool } from '../agent/agentTestSupport';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { appendCompacted } from '../../../src/host/conversationStore';
import { applyEvents } from '../../../webview/viewModel';
import { transcriptMarkdown } from '../../../webview/transcript';
import { conversationRow } from '../../../src/protocol/usageFormat';
import { callSubject, prettyArguments, resultHeadline, resultTitle } from '../../../webview/stepText';
import { createConversationView, defaultOpen, type AnswerStep, type NoticeStep, type Step, type ToolCallStep, type ToolResultStep } from '../../../webview/steps';

const serve = scriptedServers();

const table = () =>
  new TableTool('lookup', {
    france: 'The capital of France is Paris; see capitals.md line 3.',
    germany: 'The capital of Germany is Berlin; see capitals.md line 7.',
  });

const kinds = (steps: readonly Step[]) => steps.map((step) => step.kind);
const only = <K extends Step['kind']>(steps: readonly Step[], kind: K) => steps.filter((step) => step.kind === kind) as Extract<Step, { kind: K }>[];

describe('conversation view model', () => {
  it('shows thinking, the tool call, its result, the phase switch and the answer, each labelled with its model', async () => {
    const model = await serve([
      { model: 'fc-model', reasoning: 'I should look up France.', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] },
      { model: 'fc-model', content: 'I have the fact.' },
      { model: 'answer-model', content: 'Paris is the **capital** of France.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    const view = applyEvents(createConversationView(), run.events);

    assert.deepEqual(kinds(view.steps).slice(0, 3), ['thinking', 'tool-call', 'tool-result']);
    const [thinking] = only(view.steps, 'thinking');
    assert.equal(thinking?.text.startsWith('I should look up France.'), true);
    assert.equal(thinking?.done, true, 'thinking collapses when done');
    assert.deepEqual(thinking?.model, { role: 'function-call', model: 'fc-model' });

    const [call] = only(view.steps, 'tool-call');
    assert.equal(call?.name, 'lookup');
    assert.equal(call?.state, 'done');
    assert.deepEqual(JSON.parse(call?.argsText ?? ''), { key: 'france' });
    assert.equal(call?.model?.role, 'function-call');

    const [result] = only(view.steps, 'tool-result');
    assert.equal(result?.content, 'The capital of France is Paris; see capitals.md line 3.');
    assert.equal(result?.state, 'done');

    const phase = only(view.steps, 'notice').find((notice) => notice.phase);
    assert.equal(phase?.phase?.functionCallModel, 'fc-model');
    assert.equal(phase?.phase?.answerModel, 'answer-model');
    assert.equal(phase?.phase?.stopReason, 'noToolCall');

    const answers = only(view.steps, 'answer').filter((step) => step.messageKind === 'answer');
    assert.equal(answers.length, 1);
    assert.equal(answers[0]?.text, 'Paris is the **capital** of France.');
    assert.equal(answers[0]?.done, true);
    assert.deepEqual(answers[0]?.model, { role: 'answer', model: 'answer-model' });
    assert.equal(view.steps.at(-1), answers[0], 'the answer comes last');

    // Usage equals what the server counted, per model.
    const sent = (name: string) => model.requests.filter((request) => request.model === name).map((request) => request.sentUsage!);
    const sum = (name: string, field: 'prompt_tokens' | 'completion_tokens') => sent(name).reduce((total, usage) => total + (usage[field] ?? 0), 0);
    assert.equal(view.usage?.functionCall.promptTokens, sum('fc-model', 'prompt_tokens'));
    assert.equal(view.usage?.functionCall.completionTokens, sum('fc-model', 'completion_tokens'));
    assert.equal(view.usage?.functionCall.calls, 2);
    assert.equal(view.usage?.answer.promptTokens, sum('answer-model', 'prompt_tokens'));
    assert.equal(view.usage?.answer.calls, 1);
    assert.equal(view.running, false);
  });

  it('shows a message sent into the run (steered) where the run took it, in the transcript too', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] },
      { model: 'fc-model', content: 'Done.' },
      { model: 'answer-model', content: 'Paris.' },
    ]);
    let waiting = [{ id: 'q1', text: 'Germany too, please.', attached: { labels: ['notes.md'], text: 'File notes.md' } }];
    let calls = 0;
    const steering = {
      pending: () => ++calls > 1 && waiting.length > 0,
      take: async () => {
        const taken = waiting;
        waiting = [];
        return taken;
      },
    };
    // Nothing waits as the first step starts: it arrives during it.
    const run = await runScripted(settingsFor(model), { tools: [table()], steering });
    const view = applyEvents(createConversationView(), run.events);

    assert.deepEqual(kinds(view.steps).slice(0, 4), ['tool-call', 'tool-result', 'steer', 'thinking']);
    const [steer] = only(view.steps, 'steer');
    assert.equal(steer?.text, 'Germany too, please.\n\nAttached: notes.md');
    assert.equal(defaultOpen(steer!), true);
    assert.match(transcriptMarkdown('t', run.events), /\*\*You, while it worked\*\*[^\n]*\n\nGermany too, please\./);
  });

  it("shows a model's retries in a row as one notice, updated by each, that keeps why the earlier attempts failed", async () => {
    const model = await serve([
      { model: 'answer-model', content: 'A broken start', fault: { kind: 'drop', afterChunks: 1 } },
      { model: 'answer-model', fault: { kind: 'status', status: 500 } },
      { model: 'answer-model', content: 'Finally.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'Finally.');
    const view = applyEvents(createConversationView(), run.events);
    const retries = only(view.steps, 'notice').filter((notice) => notice.code === 'retry');
    assert.equal(retries.length, 1, 'one notice for both retries');
    assert.match(retries[0]!.message, /^answer-model: attempt 2 failed \(.*500.*\); trying again in [\d.]+ s\. Earlier: attempt 1: .+\.$/);
  });

  it('in streaming mode shows interim text as its own message and folds each announced result into its result step', async () => {
    const model = await serve([
      { model: 'fc-model', content: 'Let me check France.', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] },
      { model: 'fc-model', content: 'And Germany.', toolCalls: [{ name: 'lookup', arguments: { key: 'germany' } }] },
      { model: 'fc-model', content: 'Done.' },
      { model: 'answer-model', content: 'Paris and Berlin.' },
    ]);
    const run = await runScripted(settingsFor(model, { responseMode: 'streaming' }), { tools: [table()] });
    const view = applyEvents(createConversationView(), run.events);

    const interim = only(view.steps, 'answer').filter((step) => step.messageKind === 'interim');
    assert.ok(interim.some((step) => step.text.includes('Let me check France.')));
    assert.ok(interim.every((step) => step.model?.role === 'function-call'));
    const results = only(view.steps, 'tool-result');
    assert.equal(results.length, 2, 'one result step per call');
    assert.match(results[0]?.message ?? '', /lookup executed/);
    assert.match(results[0]?.message ?? '', /Paris/);
    assert.match(results[1]?.message ?? '', /Berlin/);
    const finalAnswers = only(view.steps, 'answer').filter((step) => step.messageKind === 'answer');
    assert.deepEqual(
      finalAnswers.map((step) => step.text),
      ['Paris and Berlin.'],
    );
  });

  it('a limit is said once: its notice names it, and the phase switch after it does not repeat it (in the transcript neither)', async () => {
    const call = (id: string, country: string) => ({ model: 'fc-model', toolCalls: [{ id, name: 'lookup', arguments: { country } }] });
    const model = await serve([call('c1', 'france'), call('c2', 'germany'), { model: 'answer-model', content: 'Paris and Berlin.' }]);
    const run = await runScripted(settingsFor(model, { maxIterations: 2 }), { tools: [table()] });
    const view = applyEvents(createConversationView(), run.events);
    const notices = only(view.steps, 'notice');
    const limit = notices.find((notice) => notice.code === 'maxIterations');
    assert.match(limit?.message ?? '', /Reached the limit of 2 iterations \(tandem\.agent\.maxIterations, which goes up to 10\)/);
    const phase = notices.find((notice) => notice.phase);
    assert.equal(phase?.phase?.stopReason, 'maxIterations');
    assert.equal(phase?.phase?.reason, undefined);
    const markdown = transcriptMarkdown('Capitals', run.events);
    assert.equal(markdown.match(/Reached the limit of 2 iterations/g)?.length, 1, markdown);
  });

  it('in chat mode shows only the phase switch and the answer, with one model in single-model mode', async () => {
    const model = await serve([{ model: 'fc-model', content: 'Hello! How can I help?' }]);
    const run = await runScripted(settingsFor(model, { mode: 'chat', singleModel: true }), { tools: [table()], mode: 'chat', singleModel: true });
    const view = applyEvents(createConversationView(), run.events);
    assert.deepEqual(kinds(view.steps), ['notice', 'answer']);
    const [notice] = only(view.steps, 'notice');
    assert.equal(notice?.phase?.stopReason, 'chatMode');
    assert.deepEqual(only(view.steps, 'answer')[0]?.model, { role: 'answer', model: 'fc-model' });
    assert.equal(only(view.steps, 'answer')[0]?.text, 'Hello! How can I help?');
    assert.equal(view.usage?.functionCall.calls, 0);
    assert.equal(view.usage?.answer.calls, 1);
  });

  it('with one model that answers directly, puts the end of the tool phase above the answer it streamed', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] },
      { model: 'fc-model', content: 'Paris, by the table.' },
    ]);
    const run = await runScripted(settingsFor(model, { singleModel: true }), { tools: [table()], singleModel: true });
    // The loop streams the reply before it knows it is the answer: the phase event comes after it.
    const types = run.events.map((event) => (event.type === 'CUSTOM' ? String(event['name']) : event.type));
    assert.ok(types.lastIndexOf('tandem.phase') > types.indexOf('TEXT_MESSAGE_END'));
    const compacted: AgentEvent[] = [];
    for (const event of run.events) appendCompacted(compacted, event);
    for (const view of [applyEvents(createConversationView(), run.events), applyEvents(createConversationView(), compacted)]) {
      assert.deepEqual(kinds(view.steps), ['tool-call', 'tool-result', 'notice', 'answer']);
      const [notice] = only(view.steps, 'notice');
      assert.equal(notice?.phase?.stopReason, 'noToolCall');
      assert.equal(only(view.steps, 'answer')[0]?.messageKind, 'answer');
      assert.equal(only(view.steps, 'answer')[0]?.text, 'Paris, by the table.');
    }
    assert.match(transcriptMarkdown('Direct', run.events), /answered directly[\s\S]*## Answer/);
  });

  it('a reply shown to the user as it is (nonToolReply "user") is the answer once, not also a Thought', async () => {
    const model = await serve([
      { model: 'fc-model', reasoning: 'Two tables match.', content: 'Which table do you mean?' },
    ]);
    const run = await runScripted(settingsFor(model, { nonToolReply: 'user', responseMode: 'integrated' }), { tools: [table()] });
    assert.equal(run.result?.stopReason, 'awaitingUser');
    const view = applyEvents(createConversationView(), run.events);
    assert.deepEqual(kinds(view.steps), ['thinking', 'answer', 'notice']);
    assert.equal(only(view.steps, 'thinking')[0]?.text, 'Two tables match.');
    assert.equal(only(view.steps, 'answer')[0]?.text, 'Which table do you mean?');
  });

  it('replays a compacted stream to the same view as the live stream', async () => {
    const model = await serve([
      { model: 'fc-model', reasoning: 'Think a little about this one.', toolCalls: [{ name: 'lookup', arguments: { key: 'germany' } }] },
      { model: 'fc-model', content: 'ok' },
      { model: 'answer-model', content: 'Berlin is the capital of Germany, as the table says.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    const compacted: AgentEvent[] = [];
    for (const event of run.events) appendCompacted(compacted, event);
    assert.ok(compacted.length < run.events.length, 'deltas were merged');

    const strip = (steps: readonly Step[]) => steps.map(({ version: _version, ...rest }) => rest);
    const live = applyEvents(createConversationView(), run.events);
    const replayed = applyEvents(createConversationView(), compacted);
    assert.deepEqual(strip(replayed.steps), strip(live.steps));
    assert.deepEqual(replayed.usage, live.usage);
  });

  it('ends a stopped run with the Stop notice and nothing left running', async () => {
    const model = await serve([
      { model: 'fc-model', reasoning: 'Thinking slowly about a long question with many words in it.', chunkDelayMs: 40 },
      { model: 'answer-model', content: 'never' },
    ]);
    const controller = new AbortController();
    let seen = 0;
    const run = await runScripted(settingsFor(model), {
      tools: [table()],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'REASONING_MESSAGE_CONTENT' && ++seen === 2) controller.abort();
      },
    });
    const view = applyEvents(createConversationView(), run.events);
    assert.equal(view.running, false);
    const notices = only(view.steps, 'notice');
    assert.ok(notices.some((notice) => notice.code === 'cancelled'));
    assert.ok(only(view.steps, 'thinking').every((step) => step.done));
    assert.equal(only(view.steps, 'answer').length, 0);
  });

  it('shows a model failure as an error step with a suggestion', async () => {
    const model = await serve([{ model: 'fc-model', fault: { kind: 'status', status: 401, body: '{"error":{"message":"bad key"}}' } }]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    const view = applyEvents(createConversationView(), run.events);
    const [error] = only(view.steps, 'error');
    assert.ok(error, 'an error step');
    assert.ok(error.message.length > 0);
    assert.match(error.suggestion ?? '', /\S/);
    assert.equal(view.running, false);
  });
});

describe('view model details', () => {
  const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

  it('a mode toggled back and forth leaves one notice where it ended; other notices all stay', () => {
    const notice = (code: string, message: string) => ({ type: 'CUSTOM', name: 'tandem.notice', value: { code, level: 'info', message } }) as AgentEvent;
    const view = applyEvents(createConversationView(), [
      notice('modeChanged', 'Chat mode: the model replies without tools.'),
      notice('modeChanged', 'Agent mode: the model may use tools before it answers.'),
      notice('modeChanged', 'Chat mode: the model replies without tools.'),
      notice('responseModeChanged', 'Streaming responses.'),
      notice('responseModeChanged', 'Integrated responses.'),
      notice('loopWarning', 'read_file was called again.'),
      notice('loopWarning', 'read_file was called again.'),
      notice('modeChanged', 'Agent mode: the model may use tools before it answers.'),
    ]);
    assert.deepEqual(
      view.steps.map((step) => (step as NoticeStep).message),
      ['Chat mode: the model replies without tools.', 'Integrated responses.', 'read_file was called again.', 'read_file was called again.', 'Agent mode: the model may use tools before it answers.'],
    );
  });

  it("the rules files are named once in a conversation, and again when they change", () => {
    const notice = (message: string) => ({ type: 'CUSTOM', name: 'tandem.notice', value: { code: 'rules', level: 'info', message } }) as AgentEvent;
    const user = (text: string) => ({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text } }) as AgentEvent;
    const view = applyEvents(createConversationView(), [
      user('one'),
      notice('Rules: AGENTS.md'),
      user('two'),
      notice('Rules: AGENTS.md'),
      user('three'),
      notice('Rules: AGENTS.md, CLAUDE.md'),
    ]);
    assert.deepEqual(
      view.steps.map((step) => (step.kind === 'notice' ? step.message : step.kind)),
      ['user', 'Rules: AGENTS.md', 'user', 'user', 'Rules: AGENTS.md, CLAUDE.md'],
    );
  });

  it('a usage event of the wrong shape (a damaged stored line) is left out instead of breaking the usage table', () => {
    const view = createConversationView();
    const good = { functionCall: { model: 'fc', calls: 1 }, answer: { model: 'a', calls: 1 }, toolPhaseMs: 5, answerPhaseMs: 7, totalCostUsd: undefined };
    applyEvents(view, [event('RUN_STARTED', { runId: 'r1', threadId: 't' }), event('CUSTOM', { name: 'tandem.usage', value: good })]);
    for (const value of ['oops', null, [], { functionCall: {} }, { ...good, answer: 'x' }]) applyEvents(view, [event('CUSTOM', { name: 'tandem.usage', value })]);
    assert.deepEqual(view.usage, good);
  });

  it('marks tool calls with their final status, including cached and failed', () => {
    const view = createConversationView();
    applyEvents(view, [
      event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
      event('TOOL_CALL_START', { toolCallId: 'a', toolCallName: 'search_text' }),
      event('TOOL_CALL_ARGS', { toolCallId: 'a', delta: '{"query":' }),
      event('TOOL_CALL_ARGS', { toolCallId: 'a', delta: '"x"}' }),
      event('TOOL_CALL_END', { toolCallId: 'a' }),
      event('TOOL_CALL_RESULT', { toolCallId: 'a', messageId: 'm', content: 'found' }),
      event('CUSTOM', {
        name: 'tandem.toolStatus',
        value: {
          toolCallId: 'a',
          toolName: 'search_text',
          status: 'cached',
          durationMs: 3,
          source: 'workspace',
          summary: { kind: 'search', total: 12, top: [{ title: 'a.ts:1', snippet: 'x' }] },
        },
      }),
      event('TOOL_CALL_START', { toolCallId: 'b', toolCallName: 'read_file' }),
      event('TOOL_CALL_RESULT', { toolCallId: 'b', messageId: 'n', content: 'Error: no such file\nmore' }),
      event('CUSTOM', { name: 'tandem.toolStatus', value: { toolCallId: 'b', toolName: 'read_file', status: 'failed', durationMs: 1, source: 'workspace' } }),
    ]);
    const calls = view.steps.filter((step): step is ToolCallStep => step.kind === 'tool-call');
    assert.deepEqual(calls.map((call) => call.state), ['cached', 'failed']);
    assert.equal(prettyArguments(calls[0]!.argsText), '{\n  "query": "x"\n}');
    const results = view.steps.filter((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.equal(resultHeadline(results[0]!), '12 matching lines');
    assert.equal(resultHeadline({ ...results[0]!, summary: { kind: 'search', total: 1, top: [] } }), '1 matching line');
    assert.equal(resultHeadline({ ...results[0]!, name: 'find_files', summary: { kind: 'search', total: 3, top: [] } }), '3 files');
    assert.equal(results[0]!.subject, '"x"', 'parallel searches\' results tell their queries apart');
    assert.equal(results[1]!.subject, undefined, 'a call with no arguments has no subject');
    assert.equal(resultHeadline(results[1]!), 'failed: no such file');
    // A long fault is cut after its first sentence; the body has the rest (what to do about it).
    const malformed = "Error: the arguments are not valid JSON (Expected ',' or '}' after property value in JSON at position 21). Call read_file again with a JSON object.";
    assert.equal(resultHeadline({ ...results[1]!, content: malformed }), "failed: the arguments are not valid JSON (Expected ',' or '}' after property value in JSON at position 21).");
    const edit = { ...results[0]!, name: 'edit_file', summary: undefined };
    assert.equal(
      resultHeadline({ ...edit, content: "Edited src/a.ts: 1 replacement.\n\nVS Code reports 2 errors and 1 warning in src/a.ts after this change:\n- src/a.ts:1:3 error: Type 'string'" }),
      'Edited src/a.ts: 1 replacement. 2 errors and 1 warning after it',
      "an edit that left problems says so on the step's title",
    );
    assert.equal(resultHeadline({ ...edit, content: 'Edited src/a.ts: 1 replacement.\n\nVS Code reports no errors or warnings in src/a.ts.' }), 'Edited src/a.ts: 1 replacement.');
    assert.equal(resultHeadline({ ...edit, name: 'read_file', content: 'x\n\nVS Code reports 1 error in a.ts after this change:' }), 'x', 'only an edit tool\'s own note counts');
    // A command's title says how it ended, not the command again (the call's title has it).
    const command = { ...results[0]!, name: 'run_command', summary: undefined };
    const preview = (text: string) => ({ kind: 'text', preview: text }) as const;
    assert.equal(
      resultHeadline({ ...command, state: 'done', content: '$ npm test\n(in app (web)) exit code 0, 407 ms\n\nok', summary: preview('exit code 0, 407 ms\n\nok') }),
      'exit code 0, 407 ms',
    );
    assert.equal(
      resultHeadline({ ...command, state: 'failed', content: '$ false\n(in .) exit code 1, 12 ms\n\n(no output)', summary: preview('exit code 1, 12 ms\n\n(no output)') }),
      'failed: exit code 1, 12 ms',
    );
    assert.equal(resultHeadline({ ...command, state: 'rejected', content: 'The user rejected running `rm -rf x`; it did not run.' }), 'not approved');
    const stoppedPreview = "ended when the run was stopped (by Stop or the run's time limit; the command and its children were ended), 3012 ms";
    const stopped = { ...command, state: 'stopped', content: `$ npm test\n(in .) ${stoppedPreview}\n\nok 1`, summary: preview(`${stoppedPreview}\n\nok 1`) } as const;
    assert.equal(resultHeadline(stopped), stoppedPreview, 'a command the user stopped is not called failed');
    // A title does not say the subject twice.
    const read = { ...results[0]!, name: 'read_file', summary: undefined };
    assert.equal(resultTitle({ ...read, subject: 'package.json', content: 'package.json (lines 1-37 of 37)\n1: {' }), 'read_file package.json: lines 1-37 of 37');
    assert.equal(resultTitle({ ...read, name: 'list_dir', subject: '.', content: './ (6 entries)\nsrc/' }), 'list_dir .: 6 entries');
    assert.equal(resultTitle({ ...read, name: 'list_dir', subject: 'src/', content: 'src/ (2 entries)\na.ts' }), 'list_dir src/: 2 entries');
    assert.equal(resultTitle({ ...read, subject: 'lib', content: 'library.ts (lines 1-2 of 2)' }), 'read_file lib: library.ts (lines 1-2 of 2)', 'whole words only');
    assert.equal(resultTitle({ ...read, subject: 'a.ts', content: 'a.ts' }), 'read_file a.ts: a.ts', 'nothing more to say: kept');
    assert.equal(resultTitle(results[0]!), 'search_text "x": 12 matching lines');
    assert.equal(resultTitle(results[1]!), 'read_file: failed: no such file');
    assert.equal(defaultOpen(stopped), true, 'what it printed before Stop is shown');
    assert.equal(view.running, true);
  });

  it('a result names what its call was about: the query quoted, the path or command as given, cut when long', () => {
    assert.equal(callSubject('{"query":"createWidget","isRegexp":false}'), '"createWidget"');
    assert.equal(callSubject('{"path":"src/app.ts","startLine":3}'), 'src/app.ts');
    assert.equal(callSubject(JSON.stringify({ command: 'npm   test\n -- --watch' })), 'npm test -- --watch');
    assert.equal(callSubject(JSON.stringify({ command: 'x'.repeat(100) })), `${'x'.repeat(57)}...`);
    assert.equal(callSubject('{"edits":[]}'), undefined);
    assert.equal(callSubject('{"query":'), undefined, 'arguments cut short');
    assert.equal(callSubject('["a"]'), undefined);
  });

  it('a call still running when the run ends shows as stopped, not failed', () => {
    const view = createConversationView();
    applyEvents(view, [
      event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
      event('TOOL_CALL_START', { toolCallId: 'c', toolCallName: 'run_command' }),
      event('TOOL_CALL_END', { toolCallId: 'c' }),
      event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'cancelled', answer: '' } }),
    ]);
    const call = view.steps.find((step): step is ToolCallStep => step.kind === 'tool-call');
    assert.equal(call?.state, 'stopped');
  });

  it('keeps unparsable arguments as they came', () => {
    assert.equal(prettyArguments('{"a": 1'), '{"a": 1');
    assert.equal(prettyArguments(''), '{}');
  });

  it('records run edits and their revert for the revert button, which stays for files that could not be restored', () => {
    const view = createConversationView();
    applyEvents(view, [
      event('CUSTOM', { name: 'tandem.runEdits', value: { runId: 'r1', files: ['a.ts', 'b.ts'] } }),
    ]);
    assert.deepEqual(view.edits.get('r1'), { files: ['a.ts', 'b.ts'], reverted: false });
    // b.ts could not be restored: the button stays, for it alone.
    applyEvents(view, [event('CUSTOM', { name: 'tandem.runReverted', value: { runId: 'r1', files: ['a.ts'], skipped: [], remaining: ['b.ts'] } })]);
    assert.deepEqual(view.edits.get('r1'), { files: ['b.ts'], reverted: false });
    applyEvents(view, [event('CUSTOM', { name: 'tandem.runReverted', value: { runId: 'r1', files: ['b.ts'], skipped: [], remaining: [] } })]);
    assert.equal(view.edits.get('r1')?.reverted, true);
  });

  it('a run is running from its user message on, before RUN_STARTED, and a failure while preparing ends it', () => {
    const view = createConversationView();
    applyEvents(view, [event('RUN_STARTED', { runId: 'r0' }), event('CUSTOM', { name: 'tandem.usage', value: {} }), event('RUN_FINISHED', { runId: 'r0' })]);
    assert.equal(view.running, false);
    // Preparing the next run (consent, MCP servers starting) may take seconds: Stop must work meanwhile.
    applyEvents(view, [event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'next', runId: 'r1' } })]);
    assert.equal(view.running, true);
    assert.equal(view.usage, undefined, "the last run's figures are not shown as this run's");
    applyEvents(view, [event('RUN_ERROR', { message: 'could not prepare the run', code: 'INTERNAL_ERROR' })]);
    assert.equal(view.running, false);
    assert.equal(only(view.steps, 'error').at(-1)?.message, 'could not prepare the run');
  });

  it('marks only changed steps dirty, so a render touches what moved', () => {
    const view = createConversationView();
    applyEvents(view, [
      event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'hi' } }),
      event('TEXT_MESSAGE_START', { messageId: 'm1', metadata: { role: 'answer', model: 'x' } }),
    ]);
    view.dirty.clear();
    applyEvents(view, [event('TEXT_MESSAGE_CONTENT', { messageId: 'm1', delta: 'Hel' }), event('TEXT_MESSAGE_CONTENT', { messageId: 'm1', delta: 'lo' })]);
    assert.equal(view.dirty.size, 1);
    const answer = view.steps[1] as AnswerStep;
    assert.ok(view.dirty.has(answer.id));
    assert.equal(answer.text, 'Hello');
  });

  it('grows a streamed step by its deltas, thinking and answer apart (the panel draws only what it has not shown)', () => {
    const view = createConversationView();
    applyEvents(view, [
      event('REASONING_MESSAGE_START', { messageId: 'r1' }),
      event('REASONING_MESSAGE_CONTENT', { messageId: 'r1', delta: 'Hmm' }),
      event('TEXT_MESSAGE_START', { messageId: 'm1' }),
      event('TEXT_MESSAGE_CONTENT', { messageId: 'm1', delta: 'Hel' }),
    ]);
    const [thinking, answer] = view.steps as [Step & { text: string }, AnswerStep];
    assert.equal(thinking.text, 'Hmm');
    assert.equal(answer.text, 'Hel');
    applyEvents(view, [event('TEXT_MESSAGE_CONTENT', { messageId: 'm1', delta: 'lo' }), event('TEXT_MESSAGE_CONTENT', { messageId: 'm1', delta: '!' })]);
    assert.equal(answer.text, 'Hello!');
    assert.equal(thinking.text, 'Hmm');
  });

  it('applies a 1,000-step conversation, with the deltas of each answer merged into one step', () => {
    const events: AgentEvent[] = [];
    for (let index = 0; index < 250; index++) {
      events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: `question ${index}` } }));
      events.push(event('TOOL_CALL_START', { toolCallId: `c${index}`, toolCallName: 'read_file' }));
      events.push(event('TOOL_CALL_RESULT', { toolCallId: `c${index}`, messageId: `r${index}`, content: 'x'.repeat(500) }));
      events.push(event('TEXT_MESSAGE_START', { messageId: `a${index}` }));
      for (let delta = 0; delta < 20; delta++) events.push(event('TEXT_MESSAGE_CONTENT', { messageId: `a${index}`, delta: 'word ' }));
    }
    // How fast is measured by `npm run bench`, not asserted here.
    const view = applyEvents(createConversationView(), events);
    assert.equal(view.steps.length, 1000);
  });

  it('shows a phase switch notice with both model names and the reason', () => {
    const view = applyEvents(createConversationView(), [
      event('CUSTOM', {
        name: 'tandem.phase',
        value: { phase: 'answer', role: 'answer', model: 'big', stopReason: 'maxIterations', reason: 'Iteration limit reached.', functionCallModel: 'small', answerModel: 'big' },
      }),
    ]);
    const notice = view.steps[0] as NoticeStep;
    assert.equal(notice.kind, 'notice');
    assert.equal(notice.message, 'Iteration limit reached.');
    assert.deepEqual(notice.phase, { reason: 'Iteration limit reached.', stopReason: 'maxIterations', functionCallModel: 'small', answerModel: 'big' });
  });

  it('a retried answer leaves one visible Answer: the void attempt is marked discarded and left out of the transcript', async () => {
    const model = await serve([
      { model: 'answer-model', content: 'A partial attempt that breaks off', fault: { kind: 'drop', afterChunks: 2 } },
      { model: 'answer-model', content: 'The complete answer.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const view = applyEvents(createConversationView(), run.events);
    const answers = only(view.steps, 'answer');
    assert.equal(answers.length, 2);
    assert.deepEqual(answers.filter((step) => !step.discarded).map((step) => step.text), ['The complete answer.']);
    assert.equal(answers[0]?.discarded, true);
    const transcript = transcriptMarkdown('Retry', run.events);
    assert.match(transcript, /The complete answer\./);
    assert.doesNotMatch(transcript, /partial attempt/);
  });

  it('an answer whose text was reasoning (its prompt opened <think>) shows as a Thought, then the answer, with no notice; the transcript agrees', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Weigh the options.\n</think>\n\nTake the train.' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const view = applyEvents(createConversationView(), run.events);
    const visible = view.steps.filter((step) => !('discarded' in step && step.discarded));
    assert.deepEqual(kinds(visible).filter((kind) => kind === 'thinking' || kind === 'answer'), ['thinking', 'answer']);
    assert.deepEqual(only(visible, 'answer').map((step) => step.text), ['Take the train.']);
    assert.equal(only(visible, 'thinking')[0]?.text, 'Weigh the options.\n');
    assert.deepEqual(only(view.steps, 'notice').filter((notice) => notice.code === 'retry'), [], 'not a retry');
    const transcript = transcriptMarkdown('Think', run.events);
    assert.match(transcript, /Take the train\./);
    assert.equal(transcript.split('Weigh the options').length - 1, 1, 'the reasoning once, as the Thought');
  });

  it('keeps each run\'s usage, so the conversation totals add up every run', async () => {
    const model = await serve([
      { model: 'answer-model', content: 'One.', usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { model: 'answer-model', content: 'Two.', usage: { prompt_tokens: 300, completion_tokens: 30 } },
    ]);
    const first = await runScripted(settingsFor(model), { mode: 'chat' });
    const second = await runScripted(settingsFor(model), { mode: 'chat' });
    const view = applyEvents(createConversationView(), [...first.events, ...second.events]);
    assert.equal(view.usageByRun.size, 2);
    const row = conversationRow([...view.usageByRun.values()]);
    assert.deepEqual(row.numbers, { tokensIn: 400, tokensOut: 40, cachedTokens: 0, calls: 2, partialAttempts: 0, costUsd: (400 * 10 + 40 * 20) / 1_000_000 });
    assert.equal(view.usage?.answer.promptTokens, 300, 'the last run stays the last run');
  });
});


it('shows a question with the names of what was attached, and keeps the typed text apart for Edit, Ask again and recall', () => {
  const view = applyEvents(createConversationView(), [
    { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Explain this.', runId: 'r1', attached: { labels: ['src/a.ts'], text: 'src/a.ts:\n```\nx\n```' } } } as AgentEvent,
  ]);
  const [question] = view.steps;
  assert.equal(question?.kind, 'user');
  if (question?.kind !== 'user') return;
  assert.equal(question.text, 'Explain this.\n\nAttached: src/a.ts');
  assert.equal(question.typed, 'Explain this.');
  assert.equal(question.asks, 'r1');
});
