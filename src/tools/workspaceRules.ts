// A run's rules, as every entry point reads them (the panel, the AG-UI
// endpoint in VS Code, the headless server): the files read at the start from
// each root, and the finder of those that join as the run touches files.
import { createInstructionsFinder } from './instructionsFinder';
import { createNestedRulesFinder, joinFinders, type NestedRulesFinder } from './nestedRules';
import { loadRulesFiles, type RuleFile, type RulesRoot } from './rulesFiles';

export interface WorkspaceRules {
  readonly rules: RuleFile[];
  readonly nestedRules: NestedRulesFinder | undefined;
}

/** Reads the rules anew (a run sees the files as they are when it starts). */
export async function readWorkspaceRules(roots: readonly RulesRoot[], patterns: readonly string[]): Promise<WorkspaceRules> {
  if (patterns.length === 0 || roots.length === 0) return { rules: [], nestedRules: undefined };
  return {
    rules: await loadRulesFiles(roots, patterns),
    nestedRules: joinFinders(createNestedRulesFinder(roots, patterns), createInstructionsFinder(roots, patterns)),
  };
}
