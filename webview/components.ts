// The only file that knows about @vscode/webview-ui-toolkit. The rest of the
// panel asks for "a button" or "a badge" here, so the toolkit (archived
// upstream) can be swapped for @vscode-elements/elements in this one file.
//
// Text inputs stay native (<textarea>, <input list>): they need datalist and
// caret control the toolkit's fields do not offer, and they theme well with
// the --vscode-* variables.
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeDivider,
  vsCodeProgressRing,
} from '@vscode/webview-ui-toolkit';

let registered = false;

/** Registers the custom elements once; call before building the layout. */
export function registerComponents(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeBadge(), vsCodeDivider(), vsCodeProgressRing());
}

export interface ButtonOptions {
  readonly label: string;
  readonly testId?: string;
  /** Read by screen readers; defaults to the label. */
  readonly ariaLabel?: string;
  readonly title?: string;
  readonly appearance?: 'primary' | 'secondary' | 'icon';
  readonly onClick: () => void;
}

export type ButtonElement = HTMLElement & { disabled: boolean };

export function button(options: ButtonOptions): ButtonElement {
  const element = document.createElement('vscode-button') as ButtonElement;
  element.textContent = options.label;
  element.setAttribute('appearance', options.appearance ?? 'secondary');
  element.setAttribute('aria-label', options.ariaLabel ?? options.label);
  if (options.title) element.title = options.title;
  if (options.testId) element.dataset['testid'] = options.testId;
  element.addEventListener('click', () => {
    if (!isDisabled(element)) options.onClick();
  });
  return element;
}

export function setDisabled(element: ButtonElement, disabled: boolean): void {
  element.disabled = disabled;
  element.toggleAttribute('disabled', disabled);
  element.setAttribute('aria-disabled', String(disabled));
}

function isDisabled(element: ButtonElement): boolean {
  return element.hasAttribute('disabled');
}

export function setLabel(element: ButtonElement, label: string, ariaLabel = label): void {
  if (element.textContent !== label) element.textContent = label;
  element.setAttribute('aria-label', ariaLabel);
}

export function badge(text: string, testId?: string): HTMLElement {
  const element = document.createElement('vscode-badge');
  element.textContent = text;
  if (testId) element.dataset['testid'] = testId;
  return element;
}

export function divider(): HTMLElement {
  const element = document.createElement('vscode-divider');
  element.setAttribute('role', 'separator');
  return element;
}

export function progressRing(label: string): HTMLElement {
  const element = document.createElement('vscode-progress-ring');
  element.setAttribute('aria-label', label);
  element.className = 'progress';
  return element;
}
