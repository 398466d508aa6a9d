// The browser's globals from happy-dom, as the webview has them (the
// toolkit's components read some as they load), for tests of the panel's
// DOM code in Node; Node's own globals stay. `restore` puts Node's back.
import { Window } from 'happy-dom';

export interface DomGlobals {
  readonly browser: Window;
  restore(): Promise<void>;
}

export function installDomGlobals(): DomGlobals {
  const browser = new Window({ url: 'https://panel.invalid/' });
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const names = Object.getOwnPropertyNames(browser).filter((name) => !(name in globalThis));
  for (const name of [...names, 'window', 'document', 'Event', 'EventTarget', 'KeyboardEvent']) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    Object.defineProperty(globalThis, name, { value: name === 'window' ? browser : (browser as unknown as Record<string, unknown>)[name], configurable: true, writable: true });
  }
  return {
    browser,
    async restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
      await browser.happyDOM.close();
    },
  };
}
