// `npm run bench` (memory, host part): the extension host's heap after a
// 1,000-step conversation, measured in plain Node with what the host keeps:
// Tandem's loop (real `openai` SDK) against the scripted model server (its own
// process, so its memory is not counted), 200 runs of one conversation, each
// with four tool steps and an answer (1,000 steps), every event kept compacted
// as the host's session keeps it and the history fed back into the next run.
// Reported after a full GC: heap used, and its growth over the whole
// conversation. The webview's DOM after a 1,000-step conversation is measured
// in code-server by bench/vscodeBench.ts.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createPolicyApprovalGate } from '../src/agent/policyApprovalGate';
import { runAgent } from '../src/agent/runAgent';
import { SessionCache } from '../src/agent/sessionCache';
import { createChatModel } from '../src/models/openAiChatModel';
import type { AgentEvent } from '../src/protocol/agentEvents';
import { historyMessages } from '../src/protocol/conversationHistory';
import { HostEventName } from '../src/protocol/hostEventNames';
import { appendCompacted } from '../src/host/conversationStore';
import { readResults, updateResults } from './benchResults';
import { turnsForRun, TOOL_NAME } from './loop/conversation';
import { startServer } from './loopBench';
import { LookupTool, tandemSettings } from './loop/stacks';

const RUNS = 200;
const TOOL_STEPS = 4;

export interface HostMemoryFigures {
  steps: number;
  runs: number;
  heapUsedMb: number;
  heapGrowthMb: number;
  storedEvents: number;
  seconds: number;
  how: string;
}

async function control(baseUrl: string, route: string, body: unknown): Promise<void> {
  await fetch(`${baseUrl.replace(/\/v1$/, '')}/__scripted/${route}`, { method: 'POST', body: JSON.stringify(body) });
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
}

export async function measureHostMemory(): Promise<HostMemoryFigures> {
  const server = await startServer();
  try {
    const settings = tandemSettings(server.baseUrl);
    const events: AgentEvent[] = [];
    collect();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    for (let run = 0; run < RUNS; run++) {
      // Four tool rounds, the function-call model's note, the answer.
      const turns = turnsForRun(2, 40).slice(5 - TOOL_STEPS);
      await control(server.baseUrl, 'turns', turns);
      const question = `Run ${run}: what do the keys hold?`;
      appendCompacted(events, { type: 'CUSTOM', name: HostEventName.userMessage, value: { text: question }, timestamp: Date.now() } as AgentEvent);
      const stream = runAgent(
        { threadId: 'memory', runId: randomUUID(), messages: historyMessages(events), mode: 'agent' },
        {
          functionCallModel: createChatModel(settings.functionCallModel),
          answerModel: createChatModel(settings.answerModel),
          tools: [new LookupTool()],
          approval: createPolicyApprovalGate('readOnly', async () => false),
          settings,
          cache: new SessionCache(),
        },
        new AbortController().signal,
      );
      for await (const event of stream) {
        if (event.type === 'RUN_ERROR') throw new Error(`run ${run} failed: ${String(event['message'])}`);
        appendCompacted(events, event);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    collect();
    const after = process.memoryUsage().heapUsed;
    const steps = events.filter((event) => event.type === 'TOOL_CALL_START' && event['toolCallName'] === TOOL_NAME).length + RUNS;
    return {
      steps,
      runs: RUNS,
      heapUsedMb: after / 1e6,
      heapGrowthMb: (after - before) / 1e6,
      storedEvents: events.length,
      seconds,
      how: `plain Node ${process.version}: ${RUNS} runs of one conversation (${TOOL_STEPS} tool steps + the answer each) through runAgent and the openai SDK against the scripted server in another process; events kept compacted as the host keeps them; heap after gc()`,
    };
  } finally {
    server.stop();
  }
}

async function main(): Promise<void> {
  const host = await measureHostMemory();
  console.log(`memory (host): ${host.steps} steps in ${host.runs} runs (${host.seconds.toFixed(1)} s): heap ${host.heapUsedMb.toFixed(1)} MB after GC, grew ${host.heapGrowthMb.toFixed(2)} MB; ${host.storedEvents} stored events`);
  const memory = (readResults()['memory'] as Record<string, unknown> | undefined) ?? {};
  updateResults('memory', { ...memory, host });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
