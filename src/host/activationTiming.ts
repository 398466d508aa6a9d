// Tandem's activation time, taken apart. VS Code's "Activation: N ms"
// (Developer: Show Running Extensions) is codeLoadingTime + activateCallTime:
// from the moment the extension host starts loading Tandem's module to the end
// of Tandem's require(), plus the synchronous activate() call. For an
// onStartupFinished extension the extension host starts the whole batch in one
// pass (builtins first) and then requires the modules one after another, each
// one step later on the same microtask queue, so Tandem's code loading is timed
// from the start of the pass and also holds the require() of every extension
// loaded before it (in code-server: vscode.debug-auto-launch and
// vscode.merge-conflict, ~200 KB). Tandem logs its own share (module evaluation
// + activate()) and, read from the extension host's performance marks, the
// modules required back to back right before its own and its own require();
// bench/activationBench.ts reads both lines back.
// This module is the first import of src/extension.ts, so it evaluates first.

/** When dist/extension.js began evaluating (performance.now(), ms). */
export const moduleStart = performance.now();

/** The log line giving Tandem's own share; bench/activationBench.ts reads it. */
export function ownActivationLine(moduleEnd: number, activateStart: number, activateEnd: number): string {
  const moduleMs = moduleEnd - moduleStart;
  const activateMs = activateEnd - activateStart;
  return `Activated: own share ${(moduleMs + activateMs).toFixed(1)} ms (module ${moduleMs.toFixed(1)} ms + activate() ${activateMs.toFixed(1)} ms)`;
}

export interface OwnActivation {
  /** Module evaluation + activate(), ms. */
  readonly ownMs: number;
  readonly moduleMs: number;
  /** The activate() call, which VS Code's figure counts as it is. */
  readonly activateMs: number;
}

/** Parses the lines ownActivationLine wrote, in order. */
export function parseOwnActivation(text: string): OwnActivation[] {
  return [...text.matchAll(/Activated: own share ([\d.]+) ms \(module ([\d.]+) ms \+ activate\(\) ([\d.]+) ms\)/g)].map((match) => ({
    ownMs: Number(match[1]),
    moduleMs: Number(match[2]),
    activateMs: Number(match[3]),
  }));
}

export interface PerformanceMark {
  readonly name: string;
  readonly startTime: number;
}

/** One extension's require() as the extension host marks it (Date.now() ms). */
export interface ModuleLoad {
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The extension host's performance marks. In Node, VS Code keeps them in
 * `globalThis.MonacoPerformanceMarks` (its own list, Date.now() based), not in
 * `performance`. Not an API: undefined when this VS Code keeps none there.
 */
export function extensionHostMarks(): readonly PerformanceMark[] | undefined {
  const holder = (globalThis as { MonacoPerformanceMarks?: { getMarks?: unknown } }).MonacoPerformanceMarks;
  if (typeof holder?.getMarks !== 'function') return undefined;
  try {
    const marks: unknown = holder.getMarks();
    return Array.isArray(marks) ? marks.filter(isMark) : undefined;
  } catch {
    return undefined;
  }
}

function isMark(value: unknown): value is PerformanceMark {
  const mark = value as Partial<PerformanceMark> | null;
  return typeof mark?.name === 'string' && typeof mark.startTime === 'number';
}

const WILL_LOAD = 'code/extHost/willLoadExtensionCode/';
const DID_LOAD = 'code/extHost/didLoadExtensionCode/';

/** Every extension module load the marks record, in the order the loads began. */
export function moduleLoads(marks: readonly PerformanceMark[]): ModuleLoad[] {
  const loads: ModuleLoad[] = [];
  const open = new Map<string, number>();
  for (const mark of marks) {
    if (mark.name.startsWith(WILL_LOAD)) open.set(mark.name.slice(WILL_LOAD.length), mark.startTime);
    if (mark.name.startsWith(DID_LOAD)) {
      const id = mark.name.slice(DID_LOAD.length);
      const startMs = open.get(id);
      if (startMs === undefined) continue;
      open.delete(id);
      loads.push({ id, startMs, endMs: mark.startTime });
    }
  }
  return loads.sort((left, right) => left.startMs - right.startMs);
}

/**
 * The modules required back to back right before `extensionId`'s (each ending
 * within `gapMs` of the next one's start: one pass over the microtask queue),
 * in load order. Empty when Tandem's load followed a quiet moment.
 */
export function loadedJustBefore(loads: readonly ModuleLoad[], extensionId: string, gapMs = 1): ModuleLoad[] {
  const own = loads.find((load) => load.id === extensionId);
  if (!own) return [];
  const before: ModuleLoad[] = [];
  let nextStart = own.startMs;
  for (;;) {
    const previous = loads
      .filter((load) => load.id !== extensionId && !before.includes(load) && load.endMs <= nextStart && nextStart - load.endMs <= gapMs)
      .sort((left, right) => right.endMs - left.endMs || right.startMs - left.startMs)[0];
    if (!previous) break;
    before.unshift(previous);
    nextStart = previous.startMs;
  }
  return before;
}

/**
 * The log line on Tandem's code loading as the marks show it: what was required
 * back to back right before Tandem's module, and Tandem's own require() (file
 * read, compile and evaluation); parseCodeLoading reads it back.
 */
export function codeLoadingLine(loads: readonly ModuleLoad[] | undefined, extensionId: string): string {
  const own = loads?.find((load) => load.id === extensionId);
  if (!loads || !own) return 'Code loading: unknown (no extension host performance marks)';
  const before = loadedJustBefore(loads, extensionId);
  const total = before.reduce((sum, load) => sum + (load.endMs - load.startMs), 0);
  const parts = before.map((load) => `${load.id} ${load.endMs - load.startMs} ms`);
  return `Code loading: ${total} ms loaded right before it, back to back${parts.length ? ` (${parts.join(', ')})` : ''}; its own require() ${own.endMs - own.startMs} ms`;
}

export interface CodeLoading {
  /** The modules required back to back right before Tandem's, ms. */
  readonly beforeMs: number;
  /** Tandem's own require(), ms. */
  readonly ownRequireMs: number;
}

/** Parses the lines codeLoadingLine wrote, in order. */
export function parseCodeLoading(text: string): CodeLoading[] {
  return [...text.matchAll(/Code loading: (\d+) ms loaded right before it, back to back.*?; its own require\(\) (\d+) ms/g)].map((match) => ({
    beforeMs: Number(match[1]),
    ownRequireMs: Number(match[2]),
  }));
}
