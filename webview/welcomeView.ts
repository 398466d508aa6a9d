// The welcome view: shown while no model is usable (no key for OpenAI, nothing
// answering at the base URL). It says what is wrong and offers the ways out:
// set an API key, name another OpenAI-compatible endpoint, use a local server
// the host found (Ollama, LM Studio), or one of VS Code's language models. The host hides it once a model is usable.
// When the user's own base URL is what fails (nothing answers there, a web
// page, not a URL), the view says so first and leads with the setting and
// Check again; the other ways out follow.
import type { FromWebview, WelcomeState } from '../src/protocol/webviewMessages';
import { button, setDisabled, setLabel } from './components';

export interface WelcomeView {
  readonly element: HTMLElement;
  set(state: WelcomeState | null): void;
  /** A message was not sent for want of a model: say so at the top of the view and bring it into sight. */
  held(): void;
  /** The host's answer to Check again when nothing changed: the button comes back, saying when it looked. */
  checked(): void;
}

function block(className: string, testId?: string): HTMLDivElement {
  const node = document.createElement('div');
  node.className = className;
  if (testId) node.dataset['testid'] = testId;
  return node;
}

function heading(text: string): HTMLElement {
  const node = document.createElement('h3');
  node.textContent = text;
  return node;
}

function paragraph(text: string, className = ''): HTMLParagraphElement {
  const node = document.createElement('p');
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function createWelcomeView(post: (message: FromWebview) => void): WelcomeView {
  const element = block('welcome', 'welcome');
  element.setAttribute('role', 'region');
  element.setAttribute('aria-label', 'Set up a model');
  element.hidden = true;
  // Shown once a message was held back, until a model is usable; kept across re-renders.
  const heldNote = paragraph('', 'welcome-held');
  heldNote.dataset['testid'] = 'welcome-held';
  heldNote.setAttribute('role', 'status');
  heldNote.hidden = true;
  // Check again of the view shown now, and the line under it that says when it last looked.
  let again: ReturnType<typeof button> | undefined;
  /** Check again was pressed and no new state has come since (a new one re-renders, with a fresh button). */
  let checking = false;
  const checkedNote = paragraph('', 'muted welcome-checked');
  checkedNote.dataset['testid'] = 'welcome-checked';
  checkedNote.setAttribute('role', 'status');

  const render = (state: WelcomeState): void => {
    const problems = block('welcome-problems', 'welcome-problems');
    problems.append(...state.problems.map((problem) => paragraph(problem)));

    const key = block('welcome-option');
    key.append(
      heading('Set an API key'),
      paragraph('For OpenAI, or the endpoint set in your settings. The key is kept in VS Code\u2019s secret storage and sent only to its endpoint.', 'muted'),
      button({ label: 'Set API Key…', testId: 'welcome-set-key', appearance: 'primary', onClick: () => post({ type: 'command', command: 'tandem.setApiKey' }) }),
    );

    const endpoint = block('welcome-option', 'welcome-endpoint');
    endpoint.append(
      heading('Use another endpoint'),
      paragraph('Any OpenAI-compatible API (OpenRouter, Groq, a vLLM server): its base URL, its key, then one of its models.', 'muted'),
      button({ label: 'Use an Endpoint…', testId: 'welcome-use-endpoint', onClick: () => post({ type: 'command', command: 'tandem.useEndpoint' }) }),
    );

    const local = block('welcome-option', 'welcome-local');
    local.append(heading('Use a local server'));
    if (state.localServers.length === 0) {
      local.append(paragraph(`Nothing answers at ${state.localServersTried.join(' or ')}. Start Ollama or LM Studio's server, then check again.`, 'muted'));
    }
    for (const server of state.localServers) {
      const list = block('welcome-models');
      list.append(paragraph(`${server.name} at ${server.baseUrl}${server.models.length === 0 ? ': no models loaded.' : ':'}`));
      for (const model of server.models) {
        const choose = button({
          label: model,
          testId: 'welcome-local-model',
          title: `Use ${model} from ${server.name} (written to your user settings)`,
          onClick: () => post({ type: 'useLocalModel', baseUrl: server.baseUrl, model }),
        });
        choose.dataset['baseUrl'] = server.baseUrl;
        choose.dataset['model'] = model;
        list.append(choose);
      }
      local.append(list);
    }

    const options = [key, endpoint, local];
    if (state.vscodeModels.length > 0) {
      const models = block('welcome-option', 'welcome-vscode');
      models.append(heading('Use VS Code\u2019s models'));
      const list = block('welcome-models');
      for (const model of state.vscodeModels) {
        const choose = button({
          label: model.name,
          testId: 'welcome-vscode-model',
          title: `${model.vendor} · ${model.id}`,
          onClick: () => post({ type: 'useVscodeModel', id: model.id }),
        });
        choose.dataset['model'] = model.id;
        list.append(choose);
      }
      models.append(list);
      options.push(models);
    }

    const check = button({
      label: 'Check again',
      testId: 'welcome-check',
      onClick: () => {
        // Looking can take seconds (each server gets its time to answer): the button says so meanwhile.
        setLabel(check, 'Checking…');
        setDisabled(check, true);
        checking = true;
        post({ type: 'checkModels' });
      },
    });
    again = check;
    checking = false;
    checkedNote.textContent = '';
    if (state.settingToFix) {
      heldNote.textContent = 'Not sent: your model server cannot be used yet. Your message is kept in the box below.';
      const fix = block('welcome-fix');
      fix.append(
        button({ label: 'Open Settings', testId: 'welcome-open-settings', appearance: 'primary', title: `Opens ${state.settingToFix}`, onClick: () => post({ type: 'openSettingToFix' }) }),
        check,
      );
      element.replaceChildren(heading('Tandem cannot reach your model'), heldNote, problems, fix, checkedNote, paragraph('Or use another model:', 'welcome-or'), ...options);
      return;
    }
    heldNote.textContent = 'Not sent: set up a model first. Your message is kept in the box below.';
    element.replaceChildren(heading('Welcome to Tandem'), heldNote, problems, ...options, check, checkedNote);
  };

  return {
    element,
    set(state) {
      element.hidden = state === null;
      if (state) render(state);
      else {
        element.replaceChildren();
        heldNote.hidden = true;
      }
      document.body.dataset['welcome'] = String(state !== null);
    },
    checked() {
      if (!again || !checking) return;
      checking = false;
      setLabel(again, 'Check again');
      setDisabled(again, false);
      checkedNote.textContent = `Checked at ${new Date().toLocaleTimeString()}: nothing has changed.`;
    },
    held() {
      heldNote.hidden = false;
      element.scrollTop = 0;
      element.scrollIntoView({ block: 'nearest' });
    },
  };
}
