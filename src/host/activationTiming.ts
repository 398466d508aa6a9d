// Tandem's own share of its activation. VS Code's "Activation: N ms" (Developer:
// Show Running Extensions) is codeLoadingTime + activateCallTime, and for an
// onStartupFinished extension code loading is timed from the moment the whole
// batch of onStartupFinished extensions starts loading: the extension host
// starts all of them in one pass and requires their modules one after another,
// so the figure also holds the modules of every extension loaded before this one
// (builtins come first). These timestamps separate what Tandem itself costs.
// This module is the first import of src/extension.ts, so it evaluates first.

/** When dist/extension.js began evaluating (performance.now(), ms). */
export const moduleStart = performance.now();

/** The log line giving Tandem's own share; bench/activationBench.ts reads it. */
export function ownActivationLine(moduleEnd: number, activateStart: number, activateEnd: number): string {
  const moduleMs = moduleEnd - moduleStart;
  const activateMs = activateEnd - activateStart;
  return `Activated: own share ${(moduleMs + activateMs).toFixed(1)} ms (module ${moduleMs.toFixed(1)} ms + activate() ${activateMs.toFixed(1)} ms)`;
}

/** Parses the lines ownActivationLine wrote, in order: the own share in ms. */
export function parseOwnActivation(text: string): number[] {
  return [...text.matchAll(/Activated: own share ([\d.]+) ms/g)].map((match) => Number(match[1]));
}
