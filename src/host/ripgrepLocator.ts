// Finds the rg that VS Code ships (packed apps keep it in the asar-unpacked
// tree), then one on PATH; undefined makes the tools search in JavaScript.

import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findOnPath } from '../tools/nodeWorkspaceHost';

export function ripgrepCandidates(appRoot: string): string[] {
  const executable = process.platform === 'win32' ? 'rg.exe' : 'rg';
  return [
    path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', executable),
    path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', executable),
  ];
}

export function locateRipgrep(appRoot: string = vscode.env.appRoot): string | undefined {
  for (const candidate of ripgrepCandidates(appRoot)) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this layout; try the next.
    }
  }
  return findOnPath('rg');
}
