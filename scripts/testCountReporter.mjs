// A node:test reporter that writes only the run's totals, as one JSON line:
// {"tests":N,"pass":N,"fail":N,"cancelled":N,"skipped":N,"todo":N}. The
// totals are the runner's own summary (the last top-level diagnostics).
const summaryLine = /^(tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;

export default async function* testCountReporter(source) {
  const totals = {};
  for await (const event of source) {
    if (event.type !== 'test:diagnostic' || event.data.nesting !== 0) continue;
    const match = summaryLine.exec(event.data.message);
    if (match) totals[match[1]] = Number(match[2]);
  }
  yield `${JSON.stringify(totals)}\n`;
}
