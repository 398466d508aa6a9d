// run_subagent: hands a self-contained research task to a fresh run of the
// same agent, with only the read-only workspace tools and none of this
// conversation. Its reads fill its own context, not the caller's: the caller
// gets the report. Each of its steps shows as the call's progress and, at
// the end, in the call's summary; its model calls count in the run's usage.
// It changes nothing and reaches nothing off the machine, so it needs no
// approval of its own; each of its reads goes through the run's gate, so a
// policy that asks before reads still asks.
import { EventType } from '@ag-ui/core';
import { z } from 'zod';
import { CustomEventName, type AgentEvent, type NoticeCode, type NoticePayload, type StopReason, type ToolCallStatus, type ToolStatusPayload } from '../protocol/agentEvents';
import type { ApprovalGate, SubagentStep, Tool, ToolContext, ToolResult } from '../tools/tool';
import { defineWorkspaceTool } from '../tools/workspaceToolSupport';
import { callSubject } from '../protocol/callSubject';

export const SUBAGENT_TOOL = 'run_subagent';
export const SUBAGENT_TASK_MAX = 4000;

/** Starts the subagent's run: the task as its only message, these tools, this gate. */
export type SubagentStarter = (task: string, tools: readonly Tool[], approval: ApprovalGate, context: ToolContext) => AsyncIterable<AgentEvent>;

/** The tools a subagent may use: the workspace's reads that stay on this machine. */
export function subagentTools(tools: readonly Tool[]): Tool[] {
  // Not the plan (it is the caller's), nor MCP tools (their read-only mark is the server's word), nor frontend tools.
  return tools.filter((tool) => tool.readOnly && tool.network !== true && tool.repeatable !== true && tool.source.kind === 'workspace' && tool.name !== SUBAGENT_TOOL);
}

const input = z.object({
  task: z
    .string()
    .trim()
    .min(1)
    .max(SUBAGENT_TASK_MAX)
    .describe('What to find out, with everything the subagent needs: it sees none of this conversation. Say what the report should hold.'),
});

/** The subagent's one message: its part, then the task. */
export function subagentPrompt(task: string): string {
  return (
    'You are a subagent. Another agent handed you the task below and will read only your final report, not your steps. ' +
    'Investigate with the tools, then report what you found: concise, with file paths and line numbers, and say plainly what you could not find.\n\n' +
    `Task: ${task}`
  );
}

function stepLine(step: SubagentStep): string {
  return step.subject === undefined ? step.tool : `${step.tool} ${step.subject}`;
}

/** Every read the subagent asks about is asked as part of the caller's call: the card sits on its step. */
function underCall(gate: ApprovalGate, callId: string): ApprovalGate {
  return {
    request: (request, signal) => gate.request({ ...request, toolCallId: callId }, signal),
    rejectionNote: () => gate.rejectionNote?.(callId),
  };
}

/** The subagent's notices its report carries: why it stopped, or why its report is short. The rest are the caller's to show. */
const REPORTED_NOTICES: ReadonlySet<NoticeCode> = new Set<NoticeCode>(['maxIterations', 'timeLimit', 'loopDetected', 'mistakes', 'budget', 'cancelled', 'answerTruncated', 'contentFiltered', 'emptyAnswer', 'contextFilled']);

/** A call of the subagent's, filled in as its events arrive. */
interface LiveStep {
  readonly tool: string;
  argsText: string;
  subject: string | undefined;
  status: ToolCallStatus | undefined;
}

/** What the subagent's stream said, gathered as it goes. */
class SubagentRecord {
  readonly steps: LiveStep[] = [];
  private readonly byCall = new Map<string, LiveStep>();
  readonly notices: string[] = [];
  answer = '';
  stopReason: StopReason | 'cancelled' | undefined;
  error: string | undefined;

  /** Reads one event; returns the step that just started, if one did. */
  read(event: AgentEvent): SubagentStep | undefined {
    switch (event.type) {
      case EventType.TOOL_CALL_START: {
        const step: LiveStep = { tool: String(event['toolCallName']), argsText: '', subject: undefined, status: undefined };
        this.byCall.set(String(event['toolCallId']), step);
        this.steps.push(step);
        return undefined;
      }
      case EventType.TOOL_CALL_ARGS: {
        const step = this.byCall.get(String(event['toolCallId']));
        if (step) step.argsText += String(event['delta'] ?? '');
        return undefined;
      }
      case EventType.TOOL_CALL_END: {
        const step = this.byCall.get(String(event['toolCallId']));
        if (step) step.subject = callSubject(step.argsText);
        return step;
      }
      case EventType.CUSTOM:
        if (event['name'] === CustomEventName.toolStatus) {
          const status = event['value'] as ToolStatusPayload;
          const step = this.byCall.get(status.toolCallId);
          if (step) step.status = status.status;
        } else if (event['name'] === CustomEventName.notice) {
          const notice = event['value'] as NoticePayload;
          if (REPORTED_NOTICES.has(notice.code)) this.notices.push(notice.message);
        }
        return undefined;
      case EventType.RUN_FINISHED: {
        const result = event['result'] as { stopReason?: StopReason | 'cancelled'; answer?: string } | undefined;
        this.stopReason = result?.stopReason;
        this.answer = result?.answer ?? '';
        return undefined;
      }
      case EventType.RUN_ERROR:
        this.error = String(event['message'] ?? 'the run failed');
        return undefined;
      default:
        return undefined;
    }
  }

  finishedSteps(): SubagentStep[] {
    return this.steps.map(({ tool, subject, status }) => ({ tool, ...(subject !== undefined && { subject }), ...(status !== undefined && { status }) }));
  }
}

function stepsLine(steps: readonly SubagentStep[]): string {
  if (steps.length === 0) return 'no tool calls';
  return `${steps.length} tool call${steps.length === 1 ? '' : 's'}: ${steps.map(stepLine).join(', ')}`;
}

function resultOf(record: SubagentRecord): ToolResult {
  const steps = record.finishedSteps();
  const summary = { kind: 'subagent', steps } as const;
  if (record.error !== undefined) {
    return { text: `Error: the subagent failed after ${stepsLine(steps)}: ${record.error}`, isError: true, summary };
  }
  const endedEarly = record.notices.length > 0 ? `\n\nIt stopped early: ${record.notices.join(' ')}` : '';
  const report = record.answer.trim() || '(The subagent ended without a report.)';
  return {
    text: `The subagent's report (${stepsLine(steps)}):\n\n${report}${endedEarly}`,
    summary,
    ...(record.stopReason === 'cancelled' && { stopped: true }),
  };
}

export function createSubagentTool(tools: readonly Tool[], start: SubagentStarter): Tool {
  return defineWorkspaceTool({
    name: SUBAGENT_TOOL,
    description:
      'Hand a self-contained research task to a subagent: it explores the workspace with the read-only tools ' +
      `(${tools.map((tool) => tool.name).join(', ')}) in a context of its own and returns a short report, so the files it reads do not fill yours. ` +
      'Use it for a broad search whose intermediate results you do not need, or call it several times in one reply for independent questions (they run at the same time). ' +
      'It cannot change files or run commands, and sees none of this conversation: put everything it needs in the task.',
    // It runs only reads; each of them passes the run's gate.
    readOnly: true,
    input,
    run: async (args, context) => {
      const record = new SubagentRecord();
      for await (const event of start(args.task, tools, underCall(context.approval, context.callId), context)) {
        const started = record.read(event);
        if (started) context.onProgress?.({ message: `step ${record.steps.length}: ${stepLine(started)}` });
      }
      return resultOf(record);
    },
  });
}
