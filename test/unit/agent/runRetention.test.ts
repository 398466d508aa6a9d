// What a finished run leaves behind: nothing of its own. The host keeps one
// session (its abort signal, its tools) across many runs; if anything
// module-level or long-lived (a shared SDK client, a listener on the
// session's signal, a cache) held on to a run's models, messages or events,
// every run of a long conversation would add to the extension host's heap.
// Checked by collectability (WeakRefs after a forced GC), not by heap sizes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { createPolicyApprovalGate } from '../../../src/agent/policyApprovalGate';
import { runAgent } from '../../../src/agent/runAgent';
import { SessionCache } from '../../../src/agent/sessionCache';
import type { ChatMessage } from '../../../src/models/chatModel';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { settingsFor, TableTool } from './agentTestSupport';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collectGarbage(): Promise<void> {
  // A WeakRef's target lives until the job that read it ends: let it end first.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

describe('a finished run', () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  after(() => server.close());

  it('leaves no model, message, event or cache of its own reachable, across runs of one session', async () => {
    const settings = settingsFor(server, { minResultLength: 1 });
    // One session: its signal and tool outlive every run, as the host's do.
    const session = new AbortController();
    const tool = new TableTool('inventory', { k1: 'a first value, long enough' });
    const approval = createPolicyApprovalGate('readOnly', async () => false);
    const left: WeakRef<object>[] = [];

    const runOnce = async (index: number) => {
      server.push({ model: 'fc-model', toolCalls: [{ name: 'inventory', arguments: { key: 'k1' } }] });
      server.push({ model: 'fc-model', content: 'Found it.' });
      server.push({ model: 'answer-model', content: `Answer ${index}.` });
      const functionCallModel = createChatModel(settings.functionCallModel);
      const answerModel = createChatModel(settings.answerModel);
      const cache = new SessionCache();
      const messages: ChatMessage[] = [{ role: 'user', content: `Question ${index}?` }];
      const events: AgentEvent[] = [];
      const stream = runAgent({ threadId: 't', runId: randomUUID(), messages, mode: 'agent' }, { functionCallModel, answerModel, tools: [tool], approval, settings, cache }, session.signal);
      for await (const event of stream) events.push(event);
      assert.ok(events.some((event) => event.type === 'RUN_FINISHED'), 'the run finished');
      left.push(new WeakRef(functionCallModel), new WeakRef(answerModel), new WeakRef(cache), new WeakRef(messages), new WeakRef(events), new WeakRef(stream));
    };
    for (let index = 0; index < 3; index++) await runOnce(index);

    await collectGarbage();
    const kept = left.filter((ref) => ref.deref() !== undefined);
    assert.equal(kept.length, 0, `${kept.length} of ${left.length} objects of finished runs are still reachable`);
    assert.ok(!session.signal.aborted);
  });
});
