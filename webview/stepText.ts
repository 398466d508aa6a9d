// Short texts the panel and the transcript show for steps.
import type { CondensedStep, PhaseSwitch, ToolResultStep } from './steps';
import { todoHeadline } from './todoListView';
export { callSubject } from '../src/protocol/callSubject';

export function prettyArguments(argsText: string): string {
  if (!argsText.trim()) return '{}';
  try {
    return JSON.stringify(JSON.parse(argsText), null, 2);
  } catch {
    return argsText;
  }
}

/** The one-line summary shown on a collapsed tool result. */
export function resultHeadline(step: ToolResultStep): string {
  // A tool's own preview, where it gave one, says it best (run_command's: how the command ended).
  if (step.state === 'failed') return `failed: ${shortFault(firstLine(step.summary?.kind === 'text' ? step.summary.preview : step.content))}`;
  if (step.state === 'rejected') return 'not approved';
  if (step.summary?.kind === 'search') {
    // find_files counts files; find_usages, places that use the symbol; search_text, matching lines, not matches.
    const unit = step.name === 'find_files' ? 'file' : step.name === 'find_usages' ? 'use' : 'matching line';
    return `${step.summary.total} ${unit}${step.summary.total === 1 ? '' : 's'}`;
  }
  if (step.summary?.kind === 'todos') return todoHeadline(step.summary.items);
  if (step.summary?.kind === 'subagent') return subagentHeadline(step.summary.steps.length, step.content);
  const preview = step.summary?.kind === 'text' ? step.summary.preview : step.content;
  const headline = firstLine(preview) || '(empty result)';
  // An edit that left errors says so on its title, where it is seen with the step closed.
  const problems = EDIT_TOOLS.has(step.name) ? EDIT_PROBLEMS.exec(step.content)?.[1] : undefined;
  return problems ? `${headline} ${problems} after it` : headline;
}

/** "3 steps · notes.txt line 1 says…": how far the subagent went, then the first line of its report. */
function subagentHeadline(steps: number, content: string): string {
  return `${steps} step${steps === 1 ? '' : 's'} · ${firstLine(subagentReport(content)) || 'no report'}`;
}

const REPORT_HEAD = "The subagent's report (";

/** A run_subagent result without its head line ("The subagent's report (2 tool calls: …):"), which the step lists already. */
export function subagentReport(content: string): string {
  if (!content.startsWith(REPORT_HEAD)) return content;
  const blank = content.indexOf('\n\n');
  return blank < 0 ? content : content.slice(blank + 2);
}

/**
 * What went wrong, short enough for a title: without the "Error:" every fault
 * opens with, and a long line cut after its first sentence (the body below
 * has all of it, and what to do about it).
 */
function shortFault(line: string): string {
  const fault = line.replace(/^Error:\s*/u, '');
  if (fault.length <= 100) return fault;
  const sentence = /^.+?[.!?](?=\s)/u.exec(fault)?.[0];
  return sentence !== undefined && sentence.length <= 160 ? sentence : `${fault.slice(0, 99)}…`;
}

/**
 * A tool result's title: the tool, what it was about, and its headline, which
 * does not say the subject twice ("read_file app.ts: lines 1-37 of 37", not
 * "read_file app.ts: app.ts (lines 1-37 of 37)").
 */
export function resultTitle(step: ToolResultStep): string {
  const headline = resultHeadline(step);
  const subject = step.subject;
  if (!subject) return `${step.name || 'Result'}: ${headline}`;
  return `${step.name || 'Result'} ${subject}: ${withoutSubject(headline, subject) ?? headline}`;
}

/** What `headline` says after opening with `subject` (a folder may be written with its slash), if it does and says more. */
function withoutSubject(headline: string, subject: string): string | undefined {
  const bare = subject.replace(/\/+$/, '');
  for (const prefix of [`${bare}/`, bare]) {
    if (!prefix || !headline.startsWith(prefix)) continue;
    // Whole words only: "lib" does not open "library.ts".
    if (!prefix.endsWith('/') && !/^(?:$|[\s(:—-])/.test(headline.slice(prefix.length))) continue;
    const rest = headline.slice(prefix.length).trim().replace(/^[:—-]\s*/, '');
    const inner = /^\((.+)\)$/.exec(rest)?.[1] ?? rest;
    return inner === '' ? undefined : inner;
  }
  return undefined;
}

/** The tools whose result ends with the file's diagnostics after the change (src/tools/writeTools.ts). */
const EDIT_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);
/** The count in that note's first line (editDiagnosticsText in src/tools/diagnostics.ts). */
const EDIT_PROBLEMS = /\n\nVS Code reports (\d+ errors?(?: and \d+ warnings?)?|\d+ warnings?) in .+ after this change/u;

function firstLine(value: string): string {
  const line = value.trim().split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** "Condensed 4 messages: 5,210 → 1,020 tokens" (with "~" when the counts are estimates). */
export function condensedTitle(step: CondensedStep): string {
  const about = step.estimated ? '~' : '';
  const number = (value: number) => value.toLocaleString('en-US');
  return `Condensed ${step.messages} message${step.messages === 1 ? '' : 's'}: ${about}${number(step.tokensBefore)} → ${about}${number(step.tokensAfter)} tokens`;
}

/**
 * The phase step's title and the models it names. Chat mode has no tool phase,
 * and one model serving both phases (as the usage table tells it, by name) makes
 * no switch: only a switch between two models names both.
 */
export function phaseLabel(phase: PhaseSwitch): { title: string; models: string[] } {
  if (phase.stopReason === 'chatMode') return { title: 'Answering', models: [phase.answerModel] };
  if (phase.functionCallModel === phase.answerModel) return { title: 'Tool phase ended', models: [phase.functionCallModel] };
  return { title: 'Switching to the answer model', models: [phase.functionCallModel, phase.answerModel] };
}
