// What the conversation says when the mode changes. It names the two roles
// only when two models are set: with one model serving both, "the
// function-call model ... the answer model" would describe models that are not
// there.
import type { AgentSettings } from '../agent/agentSettings';

export function modeNotice(mode: AgentSettings['mode'], oneModel: boolean): string {
  if (mode === 'agent') {
    return oneModel
      ? 'Agent mode: the model may use tools before it answers.'
      : 'Agent mode: the function-call model may use tools before the answer model answers.';
  }
  return oneModel ? 'Chat mode: the model replies without tools.' : 'Chat mode: the answer model replies without tools.';
}
