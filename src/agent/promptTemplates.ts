// The user's own system prompts (`tandem.prompts`): a template per phase,
// and variants per model-name glob that win over it (the first that matches).
// Placeholders: {{tools}} (the tool list with parameters), {{rules}} (the
// repository's rules), {{model}}, {{date}}. The rules always reach the model:
// a template without {{rules}} gets them appended, as the built-in ones do.
import type { RuleFile } from '../tools/rulesFiles';
import type { PromptTemplates } from './agentSettings';
import { rulesSection } from './rules';

export type PromptPhase = 'functionCall' | 'answer' | 'chat';

export interface PromptContext {
  readonly model: string;
  readonly rules: readonly RuleFile[] | undefined;
  /** The tool list as the built-in prompt shows it (function-call phase). */
  readonly tools?: string | undefined;
  readonly date?: Date | undefined;
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/** The user's template for the phase and model, if any. */
export function userTemplate(templates: PromptTemplates | undefined, phase: PromptPhase, model: string): string | undefined {
  if (!templates) return undefined;
  const variant = templates.variants?.find((candidate) => candidate[phase] !== undefined && globToRegExp(candidate.models).test(model));
  return variant?.[phase] ?? templates[phase];
}

/** The system prompt for a phase: the user's template rendered, or the built-in one, with the rules. */
export function systemPrompt(templates: PromptTemplates | undefined, phase: PromptPhase, builtIn: string, context: PromptContext): string {
  const template = userTemplate(templates, phase, context.model);
  if (template === undefined) return builtIn + rulesSection(context.rules);
  const values: Record<string, string> = {
    tools: context.tools ?? '',
    rules: rulesSection(context.rules).trim(),
    model: context.model,
    date: (context.date ?? new Date()).toISOString().slice(0, 10),
  };
  const rendered = template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
  return /\{\{\s*rules\s*\}\}/.test(template) ? rendered : rendered + rulesSection(context.rules);
}
