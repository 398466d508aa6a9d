// The scoped instruction files of the rules list (`.github/instructions/
// *.instructions.md` by default) whose `applyTo` names some files and not all:
// one joins the run once the run reads or edits a file it is for, as a
// nested AGENTS.md does. They are listed and read once a run, when it first
// touches a file.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { ownerOf, type NestedRule, type NestedRulesFinder } from './nestedRules';
import { expandRulePattern, readRuleText, type RulesRoot } from './rulesFiles';
import { appliesTo, appliesToEverything, isInstructionsFile, parseInstructionsFile } from './scopedInstructions';

interface Scoped {
  readonly shown: string;
  readonly applyTo: readonly string[];
  readonly body: string;
}

interface RootInstructions {
  readonly root: RulesRoot;
  readonly real: string;
  readonly scoped: readonly Scoped[];
}

export function createInstructionsFinder(roots: readonly RulesRoot[], patterns: readonly string[]): NestedRulesFinder {
  const instructionPatterns = patterns.filter((pattern) => isInstructionsFile(pattern.trim()));
  let listed: Promise<RootInstructions[]> | undefined;
  const list = () => (listed ??= Promise.all(roots.map((root) => scopedOf(root, instructionPatterns))));
  return {
    async rulesFor(absolutePath) {
      if (instructionPatterns.length === 0) return [];
      const owned = await ownerOf(await list(), absolutePath);
      if (!owned) return [];
      const { owner, file } = owned;
      const relative = path.relative(owner.real, file).split(path.sep).join('/');
      const near = (owner.root.label ? `${owner.root.label}/` : '') + relative;
      return owner.scoped
        .filter((instructions) => appliesTo(instructions.applyTo, relative))
        .map((instructions): NestedRule => ({ rule: { path: instructions.shown, text: instructions.body }, near }));
    },
  };
}

async function scopedOf(root: RulesRoot, patterns: readonly string[]): Promise<RootInstructions> {
  const real = await realpath(root.folder).catch(() => path.resolve(root.folder));
  const scoped: Scoped[] = [];
  for (const pattern of patterns) {
    for (const relative of await expandRulePattern(root.folder, pattern)) {
      const read = await readRuleText(path.join(root.folder, relative));
      if (read === undefined) continue;
      const { applyTo, body } = parseInstructionsFile(read.text);
      // Those for every file were read at the start; those for none are attached by hand in Copilot.
      if (applyTo === undefined || appliesToEverything(applyTo) || !body.trim()) continue;
      scoped.push({ shown: (root.label ? `${root.label}/` : '') + relative.split(path.sep).join('/'), applyTo, body });
    }
  }
  return { root, real, scoped };
}
