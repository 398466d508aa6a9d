// run_command: runs a shell command in a workspace folder. Always asks (the
// card shows the exact command and folder) unless every part of the command
// is covered by a `run_command:<prefix>` entry of `tandem.tools.alwaysAllow`;
// never runs in Restricted Mode. The model gets the exit code, the duration
// and the output (head and tail when long).
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { CancelledError } from '../agent/errors';
import { alwaysAllowKeyFor, changedDefinitions, decideCommand, RUN_COMMAND_TOOL, suggestedPrefix } from './commandApproval';
import type { CommandOutcome, CommandRunner } from './commandRunner';
import { scriptsBehind } from './packageScripts';
import type { Tool } from './tool';
import { defineWorkspaceTool, requireScopedPath, summaryPreview, WorkspaceToolFault } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';

export const COMMAND_OUTPUT_LIMIT = 16_000;
export const COMMAND_DEFAULT_TIMEOUT_SECONDS = 60;

export interface RunCommandDeps {
  readonly host: WorkspaceHost;
  readonly runner: CommandRunner;
  /** False in Restricted Mode: the tool refuses without asking. */
  readonly isTrusted: () => boolean;
  readonly maxOutputChars?: number | undefined;
  /** Absolute paths of the files a run has changed so far (its edit journal). */
  readonly changedInRun?: ((runId: string) => readonly string[]) | undefined;
}

export function createRunCommandTool(deps: RunCommandDeps): Tool {
  return defineWorkspaceTool({
    name: RUN_COMMAND_TOOL,
    description:
      'Run a shell command in a workspace folder and get its exit code, duration and output (stdout and stderr; long output keeps its head and tail). ' +
      'The user approves each command unless they allowed its prefix. Prefer one simple command per call; use the read-only tools to read files.',
    readOnly: false,
    approvesItself: true,
    input: z.object({
      command: z.string().trim().min(1).max(8000).describe('The shell command line, e.g. "npm test".'),
      cwd: z.string().default('.').describe("Folder to run in, relative to the workspace folder; '.' for the root."),
      timeoutSeconds: z.number().int().min(1).max(600).default(COMMAND_DEFAULT_TIMEOUT_SECONDS).describe('Ends the command (and its children) after this long.'),
    }),
    run: async (args, context) => {
      if (!deps.isTrusted()) throw new WorkspaceToolFault('commands never run in Restricted Mode (this workspace is not trusted).');
      const { target } = await requireScopedPath(deps.host, args.cwd);
      const isFolder = await stat(target.absolute).then((info) => info.isDirectory(), () => false);
      if (!isFolder) throw new WorkspaceToolFault(`${target.display} is not a folder.`);
      const prefix = suggestedPrefix(args.command);
      // An allow rule was given for what the command ran then, not for what this run rewrote it to run.
      const rewritten = changedDefinitions(args.command, deps.changedInRun?.(context.runId) ?? []);
      // `npm test` says little on its own: the card shows the scripts it runs.
      const scripts = await scriptsBehind(args.command, target.absolute, target.folder.real);
      const approved = await context.approval.request(
        {
          kind: 'toolCall',
          toolName: RUN_COMMAND_TOOL,
          toolCallId: context.callId,
          arguments: { command: args.command, cwd: target.display },
          readOnly: false,
          alwaysAsks: true,
          summary:
            `Run \`${args.command}\` in ${target.absolute}` +
            (rewritten.length > 0 ? ` (this run changed ${rewritten.join(', ')}, which decides what it runs; asked even if allowed)` : '') +
            (scripts.length > 0 ? `\nIt runs:\n${scripts.join('\n')}` : ''),
          alwaysAllow: prefix ? { key: alwaysAllowKeyFor(prefix), label: `Always allow commands starting with ${prefix}` } : null,
          allowedBy: (entries) => rewritten.length === 0 && (entries.includes(RUN_COMMAND_TOOL) || decideCommand(args.command, entries).allowed),
        },
        context.signal,
      );
      if (context.signal.aborted) throw new CancelledError();
      // A rejection, not a failure: the note the user wrote on the card goes to the model with it.
      if (!approved) return { text: `The user rejected running \`${args.command}\`; it did not run.`, rejected: true };
      const outcome = await deps.runner.run({
        command: args.command,
        cwd: target.absolute,
        timeoutMs: args.timeoutSeconds * 1000,
        maxOutputChars: deps.maxOutputChars ?? COMMAND_OUTPUT_LIMIT,
        signal: context.signal,
      });
      if (outcome.notStarted) throw new CancelledError();
      // Ended with the run (Stop, or its time limit): what it printed is still reported, so that
      // a test suite cut off after most of a minute is not lost to the answer.
      const text = describeOutcome(args.command, target.display, args.timeoutSeconds, outcome);
      // The panel's collapsed step starts with how it ended: the call's title already names the command.
      const summary = summaryPreview(`${outcomeStatus(args.timeoutSeconds, outcome)}\n\n${outcome.output.trimEnd() || '(no output)'}`);
      return { text, isError: outcome.exitCode !== 0, stopped: outcome.cancelled, summary };
    },
  });
}

export function describeOutcome(command: string, folder: string, timeoutSeconds: number, outcome: CommandOutcome): string {
  const output = outcome.output.trimEnd();
  return [`$ ${command}`, `(in ${folder || '.'}) ${outcomeStatus(timeoutSeconds, outcome)}`, '', output || '(no output)'].join('\n');
}

/** How the command ended, and how long it took: `exit code 1, 12 ms`. */
function outcomeStatus(timeoutSeconds: number, outcome: CommandOutcome): string {
  const status = outcome.cancelled
    ? "ended when the run was stopped (by Stop or the run's time limit; the command and its children were ended)"
    : outcome.timedOut
      ? `timed out after ${timeoutSeconds} s (the command and its children were ended)`
      : outcome.signal !== undefined
        ? `killed by ${outcome.signal}`
        : outcome.exitCode === undefined
          ? 'exit code unknown'
          : `exit code ${outcome.exitCode}`;
  return `${status}, ${outcome.durationMs} ms`;
}
