// The rules files of one run: those read at the start (the workspace root's)
// and the nested ones that join as the run touches files under them. Each
// file joins once and stays for the rest of the run, in both models' system
// prompts; the total stays under the same cap as the root's files.
import type { NestedRule, NestedRulesFinder } from '../tools/nestedRules';
import { cappedRule, RULE_FILE_CHAR_LIMIT, RULES_TOTAL_CHAR_LIMIT, type RuleFile } from '../tools/rulesFiles';

export class RunRules {
  private readonly list: RuleFile[];
  private readonly known: Set<string>;
  /** The text of every file in the list: a nested CLAUDE.md that repeats its AGENTS.md joins once. */
  private readonly knownTexts: Set<string>;
  private readonly looked = new Set<string>();
  private total: number;

  constructor(
    initial: readonly RuleFile[] | undefined,
    private readonly finder?: NestedRulesFinder | undefined,
  ) {
    this.list = [...(initial ?? [])];
    this.known = new Set(this.list.map((rule) => rule.path));
    this.knownTexts = new Set(this.list.map((rule) => rule.text.trim()));
    this.total = this.list.reduce((sum, rule) => sum + rule.text.length, 0);
  }

  /** The rules in the order they joined. */
  files(): readonly RuleFile[] {
    return this.list;
  }

  /** Looks up the rules above files the run touched (each file once); returns the ones that joined now. */
  async noteTouched(absolutePaths: readonly string[]): Promise<NestedRule[]> {
    if (!this.finder) return [];
    const joined: NestedRule[] = [];
    for (const file of absolutePaths) {
      if (this.looked.has(file)) continue;
      this.looked.add(file);
      let found: NestedRule[];
      try {
        found = await this.finder.rulesFor(file);
      } catch {
        continue; // A rules file that cannot be read is no rules, never a failed run.
      }
      for (const nested of found) {
        if (this.known.has(nested.rule.path) || this.knownTexts.has(nested.rule.text.trim())) continue;
        this.known.add(nested.rule.path);
        this.knownTexts.add(nested.rule.text.trim());
        const room = RULES_TOTAL_CHAR_LIMIT - this.total;
        if (room <= 0) continue;
        const rule = cappedRule(nested.rule.path, nested.rule.text, Math.min(RULE_FILE_CHAR_LIMIT, room), nested.rule.fileBytes);
        this.total += Math.min(nested.rule.text.length, RULE_FILE_CHAR_LIMIT, room);
        this.list.push(rule);
        joined.push({ rule, near: nested.near });
      }
    }
    return joined;
  }
}
