// The one adapter from VS Code's CancellationToken to an AbortSignal.
import type * as vscode from 'vscode';

export function signalFromToken(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}
