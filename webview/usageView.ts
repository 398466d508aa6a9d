// The usage panel: per model tokens in/out, calls and time, totals and the
// estimated cost. Rows carry the raw numbers as data attributes for tests.
import type { RunUsage } from '../src/protocol/agentEvents';
import { conversationRow, costLine, timeLine, usageTable, type UsageRow } from '../src/protocol/usageFormat';

function cells(row: HTMLElement, values: UsageRow): void {
  const head = document.createElement('th');
  head.scope = 'row';
  head.textContent = values.model || values.label;
  head.title = values.model ? `${values.label} model: ${values.model}` : (values.title ?? values.label);
  const texts: [string, string | undefined][] = [
    [values.tokensIn, values.tokensInTitle],
    [values.tokensOut, values.tokensOutTitle],
    [values.calls, undefined],
    [values.cost, undefined],
  ];
  row.replaceChildren(
    head,
    ...texts.map(([text, title]) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (title) cell.title = title;
      return cell;
    }),
  );
}

/** Builds the empty table once; `renderUsage` fills it. */
export function createUsagePanel(): HTMLElement {
  const panel = document.createElement('section');
  panel.className = 'usage';
  panel.dataset['testid'] = 'usage';
  panel.setAttribute('aria-label', 'Usage of the last run');
  const details = document.createElement('details');
  details.open = true;
  const summary = document.createElement('summary');
  // With the table closed, the chat's totals stay in sight on this one line.
  const brief = document.createElement('span');
  brief.className = 'muted usage-brief';
  brief.dataset['testid'] = 'usage-brief';
  summary.append('Usage', brief);
  details.append(summary);
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const label of ['Model', 'In', 'Out', 'Calls', 'Cost']) {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = label;
    head.append(cell);
  }
  const rows = table.createTBody();
  // usage-run-total: the last run; usage-total: the whole conversation.
  for (const testId of ['usage-function-call', 'usage-answer', 'usage-run-total', 'usage-total']) {
    const row = rows.insertRow();
    row.dataset['testid'] = testId;
  }
  const time = document.createElement('div');
  time.className = 'muted usage-time';
  time.dataset['testid'] = 'usage-time';
  const cost = document.createElement('div');
  cost.className = 'muted usage-cost';
  cost.dataset['testid'] = 'usage-cost';
  details.append(table, time, cost);
  panel.append(details);
  return panel;
}

function setNumbers(row: HTMLElement, usage: RunUsage['functionCall']): void {
  row.dataset['tokensIn'] = usage.promptTokens === undefined ? '' : String(usage.promptTokens);
  row.dataset['tokensOut'] = usage.completionTokens === undefined ? '' : String(usage.completionTokens);
  row.dataset['calls'] = String(usage.calls);
  row.dataset['model'] = usage.model;
}

function clearNumbers(row: HTMLElement): void {
  for (const key of ['tokensIn', 'tokensOut', 'calls', 'model', 'usd']) delete row.dataset[key];
}

/** `hadRun`: the conversation has a question, so "No run yet." would not be true. */
export function renderUsage(panel: HTMLElement, usage: RunUsage | undefined, conversation: readonly RunUsage[] = [], running = false, hadRun = false): void {
  const functionCall = panel.querySelector<HTMLElement>('[data-testid="usage-function-call"]');
  const answer = panel.querySelector<HTMLElement>('[data-testid="usage-answer"]');
  const total = panel.querySelector<HTMLElement>('[data-testid="usage-run-total"]');
  const conversationTotal = panel.querySelector<HTMLElement>('[data-testid="usage-total"]');
  const cost = panel.querySelector<HTMLElement>('[data-testid="usage-cost"]');
  const time = panel.querySelector<HTMLElement>('[data-testid="usage-time"]');
  if (!functionCall || !answer || !total || !conversationTotal || !cost || !time) return;
  panel.dataset['empty'] = String(!usage);
  const brief = panel.querySelector<HTMLElement>('[data-testid="usage-brief"]');
  if (conversation.length > 0) {
    const row = conversationRow(conversation);
    if (brief) brief.textContent = ` · ${row.tokensIn} in / ${row.tokensOut} out · ${row.calls} call${row.numbers.calls === 1 ? '' : 's'}${row.cost === '–' ? '' : ` · ${row.cost}`}`;
    cells(conversationTotal, row);
    conversationTotal.dataset['tokensIn'] = String(row.numbers.tokensIn);
    conversationTotal.dataset['tokensOut'] = String(row.numbers.tokensOut);
    conversationTotal.dataset['calls'] = String(row.numbers.calls);
    conversationTotal.dataset['usd'] = row.numbers.costUsd === undefined ? '' : String(row.numbers.costUsd);
  } else {
    if (brief) brief.textContent = '';
    conversationTotal.replaceChildren();
    clearNumbers(conversationTotal);
  }
  // Nothing to show (a new chat): no table of empty rows, only the line that says so.
  panel.dataset['blank'] = String(!usage && conversation.length === 0);
  if (!usage) {
    // Empty rows carry no figures: the hooks must not keep the last conversation's.
    for (const row of [functionCall, answer, total]) {
      row.replaceChildren();
      clearNumbers(row);
    }
    delete cost.dataset['usd'];
    // A run's first figures come when its first model call ends (a retried first call can take a while).
    // A run stopped while it was prepared (before any model call) reports no usage.
    cost.textContent = running ? 'This run: no model call has completed yet.' : hadRun ? 'The last run made no model call.' : 'No run yet.';
    time.textContent = '';
    return;
  }
  const table = usageTable(usage);
  // One model for both phases: one row for it, not the same name twice.
  cells(functionCall, table.singleModel ?? table.functionCall);
  setNumbers(functionCall, usage.functionCall);
  answer.hidden = table.singleModel !== undefined;
  cells(answer, table.answer);
  setNumbers(answer, usage.answer);
  cells(total, { ...table.total, label: 'Run', title: 'The last run' });
  time.textContent = timeLine(usage);
  cost.textContent = costLine(usage, table.costNote, table.total.cost);
  cost.dataset['usd'] = usage.totalCostUsd === undefined ? '' : String(usage.totalCostUsd);
}

