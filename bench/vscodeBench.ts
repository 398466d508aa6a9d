// `npm run bench` (the parts that need a real VS Code): activation as VS Code
// reports it, bundle sizes, and the webview's memory after a 1,000-step
// conversation — one code-server window for both. Needs `npm run build`.
import { measureActivation, printActivation, withVsCode } from './activationBench';
import { readResults, updateResults } from './benchResults';
import { measureWebviewMemory } from './webviewMemory';

const SAMPLES = Number(process.env['TANDEM_BENCH_ACTIVATIONS'] ?? 5);

async function main(): Promise<void> {
  console.log(`activation: ${SAMPLES} extension hosts in code-server, as Developer: Show Running Extensions reports it; then the webview after a 1,000-step conversation`);
  const { activation, webview } = await withVsCode(async (session) => {
    const activation = await measureActivation(session, SAMPLES);
    const webview = await measureWebviewMemory(session);
    return { activation, webview };
  });
  printActivation(activation);
  console.log(`memory (webview): ${webview.steps} steps: ${webview.domNodes} DOM nodes, rendered in ${webview.renderMs.toFixed(0)} ms`);
  updateResults('activation', activation);
  const memory = (readResults()['memory'] as Record<string, unknown> | undefined) ?? {};
  updateResults('memory', { ...memory, webview });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
