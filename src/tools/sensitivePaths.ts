// Paths whose change can run code or redirect the user's tools (editor and
// task settings, CI workflows, git hooks, dev containers, env and npm config),
// or loosen the agent's own limits: the ignore files that keep files (an
// ignored .env) away from it, and the rules files that join its system prompt.
// A write there always asks, whatever `tandem.tools.autoApprove` or
// `tandem.tools.alwaysAllow` say. Patterns use .gitignore syntax, relative to
// the workspace folder, matched without regard to case (a case-insensitive
// file system would accept `.VSCode/` as the same folder).

import ignore, { type Ignore } from 'ignore';

export const DEFAULT_SENSITIVE_PATHS: readonly string[] = [
  '.vscode/**',
  '.github/workflows/**',
  '.env*',
  '.husky/**',
  '.devcontainer/**',
  '*.code-workspace',
  '.npmrc',
  // A bare name matches at any depth, as the ignore files and AGENTS.md apply from any folder.
  '.gitignore',
  '.tandemignore',
  'AGENTS.md',
  '.github/copilot-instructions.md',
  '.github/instructions/**',
  '.tandem/**',
];

export class SensitivePaths {
  private readonly rules: Ignore;

  /**
   * `extra`: `tandem.tools.sensitivePaths` and the rules files, from any scope; a pattern `ignore` cannot read is
   * skipped, never fatal. They only add: a negation (`!**`) would take paths off the list, so it is dropped.
   */
  constructor(extra: readonly string[] = []) {
    this.rules = ignore({ ignorecase: true }).add([...DEFAULT_SENSITIVE_PATHS]);
    for (const pattern of extra) {
      if (pattern.trim().startsWith('!')) continue;
      try {
        this.rules.add(pattern);
      } catch {
        // A malformed pattern matches nothing; the defaults still apply.
      }
    }
  }

  /**
   * True when `relative` (inside a workspace folder, '/' separators) or, for a
   * folder, anything directly under it is sensitive: creating `.vscode` is the
   * first step of writing `.vscode/tasks.json`.
   */
  matches(relative: string, isDirectory = false): boolean {
    const clean = relative.replace(/^\/+|\/+$/gu, '');
    if (clean === '' || clean === '.') return false;
    if (this.rules.ignores(clean)) return true;
    return isDirectory && this.rules.ignores(`${clean}/x`);
  }
}
