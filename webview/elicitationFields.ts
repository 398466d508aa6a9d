// The inputs of an elicitation form, one per property of the server's flat
// schema: text (with its format), number, checkbox, a select for one choice,
// checkboxes for several. Defaults prefill the draft; every change goes to
// the draft (so a re-render keeps what was typed) and is checked at once
// against the same rules the host applies.
import type { ElicitationContent, ElicitationSchema } from '../src/tools/elicitation';
import { enumValues, validateElicitationContent } from '../src/tools/elicitationValidation';
import type { ElicitationDraft } from './steps';
import { element } from './element';

type Property = Readonly<Record<string, unknown>>;
type FieldKind = 'text' | 'number' | 'boolean' | 'choice' | 'choices';

interface Choice {
  readonly value: string;
  readonly label: string;
}

function kindOf(property: Property): FieldKind {
  if (property['type'] === 'boolean') return 'boolean';
  if (property['type'] === 'number' || property['type'] === 'integer') return 'number';
  if (property['type'] === 'array') return 'choices';
  return enumValues(property) === undefined ? 'text' : 'choice';
}

/** The offered values with their labels: `oneOf`/`anyOf` titles, legacy `enumNames`, or the value itself. */
function choicesOf(property: Property): Choice[] {
  const values = enumValues(property) ?? [];
  const titled = property['oneOf'] ?? property['anyOf'];
  const names = property['enumNames'];
  return values.map((value, index) => {
    let label = value;
    if (Array.isArray(titled)) {
      const entry = titled.find((item) => (item as Property | undefined)?.['const'] === value) as Property | undefined;
      if (typeof entry?.['title'] === 'string') label = entry['title'];
    } else if (Array.isArray(names) && typeof names[index] === 'string') {
      label = names[index] as string;
    }
    return { value, label };
  });
}

/** The draft a form starts from: the schema's defaults. */
export function initialDraft(schema: ElicitationSchema): ElicitationDraft {
  const draft: ElicitationDraft = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const fallback = property['default'];
    const kind = kindOf(property);
    if (kind === 'boolean') draft[name] = fallback === true;
    else if (kind === 'choices') draft[name] = Array.isArray(fallback) ? fallback.filter((item): item is string => typeof item === 'string') : [];
    else draft[name] = typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : '';
  }
  return draft;
}

/** The draft as an answer, plus one problem per field that does not fit the schema. */
export function readDraft(schema: ElicitationSchema, draft: ElicitationDraft): { content: ElicitationContent; problems: Map<string, string> } {
  const content: Record<string, string | number | boolean | readonly string[]> = {};
  const problems = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties)) {
    const required = schema.required?.includes(name) === true;
    const raw = draft[name];
    const kind = kindOf(property);
    let value: string | number | boolean | readonly string[] | undefined;
    if (kind === 'boolean') value = raw === true;
    else if (kind === 'choices') value = Array.isArray(raw) && (raw.length > 0 || required) ? raw : undefined;
    else if (typeof raw === 'string' && raw.trim() !== '') value = kind === 'number' ? Number(raw) : raw;
    if (value === undefined) {
      if (required) problems.set(name, 'Required.');
      continue;
    }
    const problem = validateElicitationContent({ type: 'object', properties: { [name]: property } }, { [name]: value })[0];
    if (problem !== undefined) problems.set(name, problem.replace(/^"[^"]*" /, '').replace(/^./, (first) => first.toUpperCase()));
    else content[name] = value;
  }
  return { content, problems };
}

export interface FieldHandle {
  readonly name: string;
  readonly node: HTMLElement;
  showProblem(problem: string | undefined): void;
}

/** One field: its label, description, input and a line for its problem. */
export function createField(name: string, property: Property, required: boolean, draft: ElicitationDraft, onChange: () => void): FieldHandle {
  const wrapper = element('div', 'elicitation-field');
  wrapper.dataset['field'] = name;
  const inputId = `elicitation-${Math.random().toString(36).slice(2)}-${name}`;
  const label = element('label', 'elicitation-label', typeof property['title'] === 'string' ? property['title'] : name);
  label.htmlFor = inputId;
  if (required) label.append(element('span', 'elicitation-required', ' *'));
  wrapper.append(label);
  if (typeof property['description'] === 'string') wrapper.append(element('div', 'elicitation-description', property['description']));
  wrapper.append(createInput(inputId, name, property, required, draft, onChange));
  const problemLine = element('div', 'elicitation-error');
  problemLine.dataset['testid'] = 'elicitation-error';
  problemLine.hidden = true;
  wrapper.append(problemLine);
  return {
    name,
    node: wrapper,
    showProblem: (problem) => {
      problemLine.textContent = problem ?? '';
      problemLine.hidden = problem === undefined;
      wrapper.dataset['invalid'] = String(problem !== undefined);
    },
  };
}

function createInput(inputId: string, name: string, property: Property, required: boolean, draft: ElicitationDraft, onChange: () => void): HTMLElement {
  const kind = kindOf(property);
  if (kind === 'boolean') {
    const box = element('input');
    box.type = 'checkbox';
    box.id = inputId;
    box.name = name;
    box.checked = draft[name] === true;
    box.addEventListener('change', () => {
      draft[name] = box.checked;
      onChange();
    });
    return box;
  }
  if (kind === 'choice') {
    const select = element('select', 'elicitation-input');
    select.id = inputId;
    select.name = name;
    const current = typeof draft[name] === 'string' ? draft[name] : '';
    if (!required || current === '') select.append(new Option(required ? 'Choose…' : '(none)', ''));
    for (const choice of choicesOf(property)) select.append(new Option(choice.label, choice.value, false, choice.value === current));
    select.value = current;
    select.addEventListener('change', () => {
      draft[name] = select.value;
      onChange();
    });
    return select;
  }
  if (kind === 'choices') {
    const group = element('div', 'elicitation-choices');
    group.id = inputId;
    group.setAttribute('role', 'group');
    const items = property['items'] as Property | undefined;
    const selected = new Set(Array.isArray(draft[name]) ? draft[name] : []);
    for (const choice of items === undefined ? [] : choicesOf(items)) {
      const option = element('label', 'elicitation-choice');
      const box = element('input');
      box.type = 'checkbox';
      box.value = choice.value;
      box.checked = selected.has(choice.value);
      box.addEventListener('change', () => {
        if (box.checked) selected.add(choice.value);
        else selected.delete(choice.value);
        // Keep the schema's order, whatever order they were ticked in.
        draft[name] = choicesOf(items ?? {}).map((each) => each.value).filter((value) => selected.has(value));
        onChange();
      });
      option.append(box, document.createTextNode(` ${choice.label}`));
      group.append(option);
    }
    return group;
  }
  const input = element('input', 'elicitation-input');
  input.id = inputId;
  input.name = name;
  input.type = kind === 'number' ? 'number' : inputType(property['format']);
  if (property['type'] === 'integer') input.step = '1';
  else if (kind === 'number') input.step = 'any';
  input.value = typeof draft[name] === 'string' ? draft[name] : '';
  input.addEventListener('input', () => {
    draft[name] = input.value;
    onChange();
  });
  return input;
}

function inputType(format: unknown): string {
  if (format === 'email') return 'email';
  if (format === 'uri') return 'url';
  if (format === 'date') return 'date';
  return 'text';
}
