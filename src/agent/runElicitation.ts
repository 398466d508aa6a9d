// An MCP server's question during a tool call, for one run: it becomes a
// `tandem.elicitation` event (pending), the run's clock stops while a person
// answers (the host's Elicitor: the panel's card, or a test), the answer is
// checked against the server's schema, and a second event with the same id
// records it. The agent core never sees how the question is shown.
import { randomUUID } from 'node:crypto';
import { CustomEventName, type ElicitationPayload } from '../protocol/agentEvents';
import type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from '../tools/elicitation';
import { applySchemaDefaults, validateElicitationContent } from '../tools/elicitationValidation';
import type { AgentClock } from './agentClock';
import type { RunEmitter } from './runEmitter';

/** How a host asks a person; rejects (CancelledError) when `signal` aborts. */
export interface Elicitor {
  ask(prompt: ElicitationPayload, signal: AbortSignal): Promise<ElicitationAnswer>;
}

export function createRunElicitation(elicitor: Elicitor, emitter: RunEmitter, clock: AgentClock): ElicitationHandler {
  return async (request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> => {
    const pending: ElicitationPayload = {
      id: randomUUID(),
      serverName: request.serverName,
      message: request.message,
      mode: request.mode,
      requestedSchema: request.mode === 'form' ? request.requestedSchema : undefined,
      url: request.mode === 'url' ? request.url : undefined,
      status: 'pending',
    };
    emitter.custom(CustomEventName.elicitation, pending);
    const resume = clock.pause();
    let answer: ElicitationAnswer;
    try {
      answer = await elicitor.ask(pending, signal);
    } catch (error) {
      emitter.custom(CustomEventName.elicitation, { ...pending, status: 'cancel' } satisfies ElicitationPayload);
      throw error;
    } finally {
      resume();
    }
    // The card validates too; an answer that still does not fit the schema is not sent as accepted.
    if (answer.action === 'accept' && request.mode === 'form' && validateElicitationContent(request.requestedSchema, applySchemaDefaults(request.requestedSchema, answer.content)).length > 0) {
      answer = { action: 'cancel' };
    }
    emitter.custom(CustomEventName.elicitation, { ...pending, status: answer.action } satisfies ElicitationPayload);
    return answer;
  };
}
