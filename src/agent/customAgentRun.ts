// The custom agent a run works as (`tandem.agent.customAgent`), for the
// panel's runs, the AG-UI endpoint's in VS Code and the headless server's
// alike: the agent as its file reads now (`load`: from VS Code's folders or
// the served one), and the run's tools narrowed to those it names (as a slash
// command's `tools:` narrows them). A name with no file is said (once per
// `said` set) and the run goes on without it.
import type { AgentSettings } from './agentSettings';
import { SUBAGENT_TOOL } from './subagentTool';
import { missingAgentMessage, type CustomAgent } from '../tools/customAgents';
import { narrowedToolsMessage, narrowTools } from '../tools/promptFileTools';
import type { Tool } from '../tools/tool';

export interface CustomAgentRun {
  readonly agent: CustomAgent | undefined;
  readonly tools: readonly Tool[];
  readonly settings: AgentSettings;
}

export type RunNotice = (code: 'toolsNamed' | 'customAgentMissing', message: string, level: 'info' | 'warning') => void;

/** `offered`: the run's tools before the agent (none in Chat mode, where nothing is narrowed). */
export async function customAgentForRun(
  settings: AgentSettings,
  offered: readonly Tool[],
  load: (name: string) => Promise<CustomAgent | undefined>,
  notice: RunNotice,
  said?: Set<string>,
): Promise<CustomAgentRun> {
  const name = settings.customAgent;
  if (!name) return { agent: undefined, tools: offered, settings };
  const agent = await load(name);
  if (agent === undefined) {
    if (!said?.has(name)) notice('customAgentMissing', missingAgentMessage(name), 'warning');
    said?.add(name);
    return { agent, tools: offered, settings };
  }
  if (agent.tools === undefined) return { agent, tools: offered, settings };
  return { agent, ...narrowRunTools(settings, offered, agent.tools, `the custom agent "${agent.name}"`, notice) };
}

/**
 * A run's tools narrowed to those `by` (a custom agent, a slash command) names, said in a notice;
 * `run_subagent`, which the loop adds itself, is named like the rest. Nothing to narrow in Chat mode.
 */
export function narrowRunTools(settings: AgentSettings, offered: readonly Tool[], names: readonly string[], by: string, notice: RunNotice): { tools: readonly Tool[]; settings: AgentSettings } {
  if (settings.mode !== 'agent') return { tools: offered, settings };
  const narrowed = narrowTools(offered, names, settings.subagents === true ? [SUBAGENT_TOOL] : []);
  notice('toolsNamed', narrowedToolsMessage(by, narrowed), 'info');
  const subagents = narrowed.loopTools.has(SUBAGENT_TOOL);
  return { tools: narrowed.tools, settings: subagents === (settings.subagents === true) ? settings : { ...settings, subagents } };
}
