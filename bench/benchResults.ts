// bench/results.json (schema in DESIGN.md): each benchmark updates its own
// section and keeps the others, so the parts can also run one at a time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const resultsFile = path.join(__dirname, 'results.json');

export function readResults(): Record<string, unknown> {
  if (!existsSync(resultsFile)) return {};
  try {
    return JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function updateResults(section: string, value: unknown): void {
  const results = readResults();
  results[section] = value;
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
