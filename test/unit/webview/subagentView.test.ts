// A subagent in the panel, on happy-dom's DOM and the real view model, from a
// real run (loop, SDK, scripted server, workspace tools): while it works its
// caller's step says which step it is on; after, the step's title reads how
// many steps and the report's first line, and its body lists each call with
// how it ended, then the report.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import { runScripted, scriptedServers, settingsFor } from '../agent/agentTestSupport';
import { makeKit, type Kit } from '../tools/workspaceTestKit';
import { SUBAGENT_TOOL } from '../../../src/agent/subagentTool';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { applyEvents } from '../../../webview/viewModel';
import { resultTitle } from '../../../webview/stepText';
import { createConversationView, type ToolCallStep, type ToolResultStep } from '../../../webview/steps';
import type { StepRenderContext } from '../../../webview/stepView';

const serve = scriptedServers();
let dom: DomGlobals;
let kit: Kit;
let events: readonly AgentEvent[];
let createStepElement: (typeof import('../../../webview/stepView'))['createStepElement'];
const context = { onCopy: () => undefined, userOpen: new Map<string, boolean>() } as unknown as StepRenderContext;

before(async () => {
  kit = makeKit();
  writeFileSync(path.join(kit.root, 'notes.txt'), 'Ship on Friday.\n');
  const model = await serve([
    { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: 'Find when we ship.' } }] },
    {
      model: 'fc-model',
      toolCalls: [
        { id: 'read-1', name: 'read_file', arguments: { path: 'notes.txt' } },
        { id: 'read-2', name: 'read_file', arguments: { path: 'missing.txt' } },
      ],
    },
    { model: 'fc-model', content: 'Found it.' },
    { model: 'answer-model', content: 'notes.txt line 1 says we ship on Friday.\nNothing else mentions it.' },
    { model: 'fc-model', content: 'Enough.' },
    { model: 'answer-model', content: 'Friday.' },
  ]);
  const run = await runScripted(settingsFor(model, { subagents: true }), { tools: kit.tools });
  assert.equal(run.result?.answer, 'Friday.');
  events = run.events;
  dom = installDomGlobals();
  ({ createStepElement } = await import('../../../webview/stepView'));
});

after(async () => {
  kit.dispose();
  await dom.restore();
});

describe('a subagent in the panel', () => {
  it('shows which step it is on while it works', () => {
    const isProgress = (event: AgentEvent) => event.type === EventType.CUSTOM && event['name'] === 'tandem.toolProgress';
    const lastProgress = events.length - 1 - [...events].reverse().findIndex(isProgress);
    const view = applyEvents(createConversationView(), events.slice(0, lastProgress + 1));
    const call = view.steps.find((step): step is ToolCallStep => step.kind === 'tool-call' && step.name === SUBAGENT_TOOL);
    assert.equal(call?.progress, 'step 2: read_file missing.txt');
  });

  it('reads its steps and the report in the caller\'s step', () => {
    const view = applyEvents(createConversationView(), events);
    const result = view.steps.find((step): step is ToolResultStep => step.kind === 'tool-result' && step.name === SUBAGENT_TOOL);
    assert.ok(result);
    assert.equal(resultTitle(result), 'run_subagent "Find when we ship.": 2 steps · notes.txt line 1 says we ship on Friday.');

    const article = createStepElement(result, context);
    document.body.append(article);
    (article.querySelector('details') as HTMLDetailsElement | null)?.setAttribute('open', '');
    const items = [...article.querySelectorAll<HTMLElement>('[data-testid="subagent-step"]')];
    assert.deepEqual(
      items.map((item) => [item.dataset['status'], item.textContent]),
      [
        ['done', '✓read_file notes.txt'],
        ['failed', '✗read_file missing.txt (failed)'],
      ],
    );
    assert.equal(items[0]?.querySelector('.subagent-mark')?.getAttribute('aria-hidden'), 'true', 'the mark is not read out; the words say it');
    // The report, without the head line the list above already says.
    assert.equal(article.querySelector('pre')?.textContent, 'notes.txt line 1 says we ship on Friday.\nNothing else mentions it.');
  });
});
