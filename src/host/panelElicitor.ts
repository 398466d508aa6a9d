// The VS Code Elicitor: an MCP server's question waits here while the panel's
// card shows it (the run already emitted it as a `tandem.elicitation` event
// and paused its clock). The card answers by the question's id. An accepted
// form is checked against the server's schema once more (the webview is not
// trusted): a form that does not fit stays pending and the user is told. An
// accepted URL question opens its page, http and https only.
import * as vscode from 'vscode';
import { CancelledError } from '../common/errors';
import type { Elicitor } from '../agent/runElicitation';
import type { ElicitationPayload } from '../protocol/agentEvents';
import type { ElicitationAnswer, ElicitationContent } from '../tools/elicitation';
import { applySchemaDefaults, validateElicitationContent } from '../tools/elicitationValidation';

interface Pending {
  readonly prompt: ElicitationPayload;
  readonly settle: (answer: ElicitationAnswer) => void;
}

export type ElicitationAction = ElicitationAnswer['action'];

export class PanelElicitor implements Elicitor {
  private readonly pending = new Map<string, Pending>();

  constructor(
    /** Opens a page in the user's browser (vscode.env.openExternal). */
    private readonly openPage: (url: string) => Promise<boolean> = (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
  ) {}

  ask(prompt: ElicitationPayload, signal: AbortSignal): Promise<ElicitationAnswer> {
    signal.throwIfAborted();
    return new Promise<ElicitationAnswer>((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(prompt.id);
        reject(new CancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(prompt.id, {
        prompt,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(prompt.id);
          resolve(answer);
        },
      });
    });
  }

  /** Questions waiting for the user, oldest first. */
  pendingPrompts(): readonly ElicitationPayload[] {
    return [...this.pending.values()].map((item) => item.prompt);
  }

  /**
   * The card's answer, by exact id. Returns undefined when it was taken, or
   * why not: no such question, or an accepted form that does not fit.
   */
  async answer(id: string, action: ElicitationAction, content: ElicitationContent | undefined): Promise<string | undefined> {
    const item = this.pending.get(id);
    if (item === undefined) return 'That question is no longer waiting for an answer.';
    const { prompt } = item;
    if (action !== 'accept') {
      item.settle({ action });
      return undefined;
    }
    if (prompt.mode === 'url') {
      const url = prompt.url ?? '';
      if (!isWebPage(url)) return `Tandem opens only http and https pages, not ${url}.`;
      item.settle({ action: 'accept' });
      await this.openPage(url);
      return undefined;
    }
    const schema = prompt.requestedSchema ?? { type: 'object', properties: {} };
    const problems = validateElicitationContent(schema, applySchemaDefaults(schema, content));
    if (problems.length > 0) return `The answer does not fit the form of "${prompt.serverName}": ${problems.join(' ')}`;
    item.settle({ action: 'accept', content: content ?? {} });
    return undefined;
  }

  /** Ends every question without an answer (the panel went away). */
  dispose(): void {
    for (const item of [...this.pending.values()]) item.settle({ action: 'cancel' });
  }
}

function isWebPage(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
