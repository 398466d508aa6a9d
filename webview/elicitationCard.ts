// The elicitation card: an MCP server asks the user during a tool call. Form
// mode shows one input per field of the server's schema (defaults prefilled,
// checked as typed); Submit sends only a form that fits the schema. URL mode
// shows the page's address; Open accepts and the host opens it. Decline says
// no; Cancel dismisses without an answer. The card answers by the question's
// id; the answer event then updates it. The run's clock is paused meanwhile.
import type { ElicitationContent } from '../src/tools/elicitation';
import { button, setDisabled, type ButtonElement } from './components';
import { createField, initialDraft, readDraft, type FieldHandle } from './elicitationFields';
import type { ElicitationStep } from './steps';
import { element } from './element';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export interface ElicitationCardHooks {
  readonly onElicitation?: ((id: string, action: ElicitationAction, content: ElicitationContent | undefined) => void) | undefined;
}

const STATUS_TEXT: Record<ElicitationStep['status'], string> = {
  pending: 'Waiting for your answer',
  accept: 'Answered',
  decline: 'Declined',
  cancel: 'Cancelled',
  expired: 'Not answered (the run ended)',
};

/** Only web pages are opened for a server; anything else (command:, file:) is shown, never offered. */
export function isOpenableUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export function createElicitationCard(step: ElicitationStep, hooks: ElicitationCardHooks): HTMLElement {
  const article = element('article', 'step step-elicitation');
  article.dataset['testid'] = 'elicitation';
  article.dataset['stepId'] = step.id;
  updateElicitationCard(article, step, hooks);
  return article;
}

export function updateElicitationCard(article: HTMLElement, step: ElicitationStep, hooks: ElicitationCardHooks): void {
  article.dataset['elicitationId'] = step.elicitationId;
  article.dataset['status'] = step.status;
  article.dataset['mode'] = step.mode;
  article.dataset['server'] = step.serverName;
  article.setAttribute('role', 'group');
  article.setAttribute('aria-label', `Question from MCP server ${step.serverName}`);

  const head = element('div', 'approval-head');
  head.append(element('span', 'approval-tool', `MCP server "${step.serverName}" asks`));
  const status = element('span', `approval-status status-${step.status === 'expired' ? 'expired' : step.status}`, STATUS_TEXT[step.status]);
  status.dataset['testid'] = 'elicitation-status';
  if (step.status === 'pending') status.setAttribute('aria-live', 'polite');
  head.append(status);

  const message = element('div', 'elicitation-message', step.message);
  message.dataset['testid'] = 'elicitation-message';
  const nodes: HTMLElement[] = [head, message];
  const pending = step.status === 'pending';

  if (step.mode === 'url') {
    const url = element('code', 'elicitation-url', step.url ?? '');
    url.dataset['testid'] = 'elicitation-url';
    nodes.push(url);
    if (!isOpenableUrl(step.url)) nodes.push(element('div', 'approval-warning', 'Tandem opens only http and https pages.'));
  }

  const fields: FieldHandle[] = [];
  const schema = step.requestedSchema;
  if (step.mode === 'form' && schema !== undefined && pending) {
    if (Object.keys(step.draft).length === 0) Object.assign(step.draft, initialDraft(schema));
    const form = element('form', 'elicitation-form');
    form.noValidate = true; // our own checks, the same rules as the host's
    const recheck = (): void => {
      const { problems } = readDraft(schema, step.draft);
      for (const field of fields) if (field.node.dataset['invalid'] === 'true' || field.node.dataset['touched'] === 'true') field.showProblem(problems.get(field.name));
    };
    for (const [name, property] of Object.entries(schema.properties)) {
      const field = createField(name, property, schema.required?.includes(name) === true, step.draft, () => {
        field.node.dataset['touched'] = 'true';
        recheck();
      });
      fields.push(field);
      form.append(field.node);
    }
    form.addEventListener('submit', (event) => event.preventDefault());
    nodes.push(form);
  }

  if (pending) {
    const actions = element('div', 'approval-actions');
    const buttons: ButtonElement[] = [];
    const answer = (action: ElicitationAction, content?: ElicitationContent): void => {
      if (step.answering) return;
      step.answering = true;
      for (const each of buttons) setDisabled(each, true);
      hooks.onElicitation?.(step.elicitationId, action, content);
    };
    const submit = (): void => {
      if (step.mode === 'url' || schema === undefined) {
        answer('accept');
        return;
      }
      const { content, problems } = readDraft(schema, step.draft);
      for (const field of fields) field.showProblem(problems.get(field.name));
      if (problems.size > 0) {
        fields.find((field) => problems.has(field.name))?.node.querySelector<HTMLElement>('input, select')?.focus();
        return;
      }
      answer('accept', content);
    };
    if (step.mode === 'form' || isOpenableUrl(step.url)) {
      buttons.push(
        button({
          label: step.mode === 'url' ? 'Open' : 'Submit',
          testId: 'approve',
          appearance: 'primary',
          title: step.mode === 'url' ? `Opens ${step.url ?? ''} in your browser` : undefined,
          onClick: submit,
        }),
      );
    }
    buttons.push(button({ label: 'Decline', testId: 'reject', onClick: () => answer('decline') }));
    buttons.push(button({ label: 'Cancel', testId: 'cancel', onClick: () => answer('cancel') }));
    actions.append(...buttons);
    if (step.answering) for (const each of buttons) setDisabled(each, true);
    nodes.push(actions);
  }
  article.replaceChildren(...nodes);
}
