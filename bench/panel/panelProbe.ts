// Watches the panel's DOM from inside its webview frame: a MutationObserver
// notes, for each batch of DOM changes, the highest answer marker (`t<k>`)
// that just arrived and when (epoch ms, the clock the scripted server stamps
// its chunks with); a PerformanceObserver collects the frame's long tasks.
// Reading only the nodes that were added keeps the probe's own cost small.
import type { Frame } from 'playwright-core';

export interface ProbeReading {
  /** Pairs: time (epoch ms), highest marker in the DOM from then on. */
  readonly arrivals: readonly number[];
  /** Pairs: time, highest marker in the host's messages so far (splits transport from rendering). */
  readonly messages: readonly number[];
  /** Main-thread tasks over 50 ms in the webview, in ms. */
  readonly longTasks: readonly number[];
  /** Pairs: highest marker shown before the frame, ms its animation-frame callbacks took (the panel's render). */
  readonly frames: readonly number[];
  /** The answer's text once done. */
  readonly answerText: string;
}

interface ProbeState {
  arrivals: number[];
  messages: number[];
  frames: number[];
  longTasks: number[];
  highest: number;
  observers: { disconnect(): void }[];
}

/** Starts watching; call before the prompt is sent. */
export async function installProbe(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const global = globalThis as unknown as { tandemProbe?: ProbeState };
    for (const observer of global.tandemProbe?.observers ?? []) observer.disconnect();
    const state: ProbeState = { arrivals: [], messages: [], frames: [], longTasks: [], highest: -1, observers: [] };
    global.tandemProbe = state;
    const highestIn = (text: string): number => {
      // Markers are in order, so the last one in a node is its highest; look at the end only.
      const tail = text.length > 400 ? text.slice(-400) : text;
      let best = -1;
      for (const match of tail.matchAll(/t(\d+)/g)) best = Math.max(best, Number(match[1]));
      return best;
    };
    const mutations = new MutationObserver((records) => {
      const now = performance.timeOrigin + performance.now();
      let highest = state.highest;
      for (const record of records) {
        if (!(record.target instanceof Element ? record.target : record.target.parentElement)?.closest('[data-testid="answer"]') &&
          ![...record.addedNodes].some((node) => node instanceof Element && node.querySelector('[data-testid="answer"]'))) continue;
        for (const node of record.addedNodes) highest = Math.max(highest, highestIn(node.textContent ?? ''));
        if (record.type === 'characterData') highest = Math.max(highest, highestIn(record.target.textContent ?? ''));
      }
      if (highest > state.highest) {
        state.highest = highest;
        state.arrivals.push(now, highest);
      }
    });
    // The panel renders in animation-frame callbacks: time each one.
    const requestFrame = window.requestAnimationFrame;
    window.requestAnimationFrame = (callback) =>
      requestFrame.call(window, (time) => {
        const start = performance.now();
        const before = state.highest;
        callback(time);
        state.frames.push(before, performance.now() - start);
      });
    state.observers.push({ disconnect: () => (window.requestAnimationFrame = requestFrame) });
    let messaged = -1;
    const onMessage = (message: MessageEvent) => {
      const data = message.data as { type?: string; events?: { delta?: unknown }[] };
      if (data?.type !== 'events' || !Array.isArray(data.events)) return;
      const now = performance.timeOrigin + performance.now();
      for (const event of data.events) if (typeof event.delta === 'string') messaged = Math.max(messaged, highestIn(event.delta));
      state.messages.push(now, messaged);
    };
    window.addEventListener('message', onMessage);
    state.observers.push({ disconnect: () => window.removeEventListener('message', onMessage) });
    mutations.observe(document.body, { childList: true, subtree: true, characterData: true });
    state.observers.push(mutations);
    try {
      const longTasks = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
      });
      longTasks.observe({ type: 'longtask' });
      state.observers.push(longTasks);
    } catch {
      // No Long Tasks API in this browser: the count stays empty.
    }
  });
}

/** Stops watching and returns what was seen. */
export async function readProbe(frame: Frame): Promise<ProbeReading> {
  return frame.evaluate(() => {
    const state = (globalThis as unknown as { tandemProbe: ProbeState }).tandemProbe;
    for (const observer of state.observers) observer.disconnect();
    const answers = [...document.querySelectorAll('[data-testid="answer"]')];
    return {
      arrivals: state.arrivals,
      messages: state.messages,
      frames: state.frames,
      longTasks: state.longTasks,
      answerText: answers.at(-1)?.textContent ?? '',
    };
  });
}

export interface PanelFigures {
  readonly tokenToDomP50Ms: number;
  readonly tokenToDomP99Ms: number;
  readonly tokensPerSecond: number;
  readonly complete: boolean;
  /** p99 over the first and the last tenth of the answer: equal when the cost per token is flat. */
  readonly firstTenthP99Ms: number;
  readonly lastTenthP99Ms: number;
  readonly longTasks: number;
  readonly longestTaskMs: number;
}

/**
 * Token-to-DOM latency of each marker: when it first showed in the DOM minus
 * when the server sent the chunk carrying it. Tokens per second: tokens from
 * the first marker to the last over the time between their showing.
 */
export function panelFigures(
  reading: ProbeReading,
  markerSentAt: readonly number[],
  complete: boolean,
  /** The token carrying each marker (tokens without one, such as list bullets, count toward the rate); default: one per marker. */
  markerToken: readonly number[] = markerSentAt.map((_, index) => index),
): PanelFigures {
  const latencies: number[] = [];
  let arrival = 0;
  for (let marker = 0; marker < markerSentAt.length; marker++) {
    while (arrival < reading.arrivals.length && reading.arrivals[arrival + 1]! < marker) arrival += 2;
    if (arrival >= reading.arrivals.length) break;
    latencies.push(reading.arrivals[arrival]! - markerSentAt[marker]!);
  }
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  const first = reading.arrivals[0] ?? 0;
  const last = reading.arrivals.at(-2) ?? first;
  return {
    tokenToDomP50Ms: round(percentile(latencies, 0.5)),
    tokenToDomP99Ms: round(percentile(latencies, 0.99)),
    tokensPerSecond: Math.round(last > first && latencies.length > 1 ? ((markerToken[latencies.length - 1]! - markerToken[0]!) * 1000) / (last - first) : 0),
    complete: complete && latencies.length === markerSentAt.length,
    firstTenthP99Ms: round(percentile(latencies.slice(0, tenth), 0.99)),
    lastTenthP99Ms: round(percentile(latencies.slice(-tenth), 0.99)),
    longTasks: reading.longTasks.length,
    longestTaskMs: Math.round(Math.max(0, ...reading.longTasks)),
  };
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
