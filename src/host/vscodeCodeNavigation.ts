// find_usages over VS Code's own providers: the workspace symbol search, Go
// to Definition and Find All References, as every language extension serves
// them. (TypeScript's symbol search covers only the projects it has loaded:
// find_usages then asks from a place the name is used.)
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import * as vscode from 'vscode';
import { CancelledError } from '../common/errors';
import type { CodeLocation, CodeNavigation, SymbolDefinition } from '../tools/codeNavigation';

/** The longest wait for a language's extensions to activate. */
const ACTIVATION_BOUND_MS = 15_000;
/** How long an answer of no reference is asked again (a TypeScript project loads in a few seconds). */
const SETTLE_MS = 6_000;
const RETRY_MS = 500;

export class VscodeCodeNavigation implements CodeNavigation {
  /** Languages whose extensions have been activated (a provider answers only once its extension runs). */
  private readonly readyLanguages = new Map<string, Promise<void>>();

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /**
   * Opens the document and activates the extensions that serve its language:
   * opening alone starts their activation, but the providers are asked at
   * once, before an extension activating now has registered any.
   */
  private async prepare(path: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.file(path);
    const document = await vscode.workspace.openTextDocument(uri);
    const language = document.languageId;
    let ready = this.readyLanguages.get(language);
    if (ready === undefined) {
      const serving = vscode.extensions.all.filter((extension) => {
        const events = (extension.packageJSON as { activationEvents?: unknown }).activationEvents;
        return !extension.isActive && Array.isArray(events) && events.includes(`onLanguage:${language}`);
      });
      const started = Date.now();
      const activated = Promise.allSettled(serving.map((extension) => extension.activate())).then(() => {
        this.log(`find_usages: ${serving.length} extensions for ${language} active after ${Date.now() - started} ms`);
      });
      ready = Promise.race([activated, new Promise<void>((resolve) => setTimeout(resolve, ACTIVATION_BOUND_MS))]);
      this.readyLanguages.set(language, ready);
    }
    await ready;
    return uri;
  }

  async definitions(name: string, signal: AbortSignal): Promise<readonly SymbolDefinition[]> {
    const symbols = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', name)) ?? [];
    if (signal.aborted) throw new CancelledError();
    const named = symbols.filter((symbol) => (symbol.name === name || symbol.name === `${name}()`) && symbol.location.uri.scheme === 'file');
    this.log(`find_usages: the symbol search knows ${named.length} named ${name}`);
    return named.map((symbol) => ({
      ...fromPosition(symbol.location.uri, symbol.location.range.start),
      name: symbol.name,
      kind: vscode.SymbolKind[symbol.kind]?.toLowerCase() ?? 'symbol',
      container: symbol.containerName || undefined,
    }));
  }

  async definitionsAt(at: CodeLocation, signal: AbortSignal): Promise<readonly CodeLocation[]> {
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', await this.prepare(at.path), toPosition(at));
    if (signal.aborted) throw new CancelledError();
    return (found ?? [])
      .map((entry) => ('targetUri' in entry ? { uri: entry.targetUri, start: (entry.targetSelectionRange ?? entry.targetRange).start } : { uri: entry.uri, start: entry.range.start }))
      .filter((entry) => entry.uri.scheme === 'file')
      .map((entry) => fromPosition(entry.uri, entry.start));
  }

  async references(at: CodeLocation, signal: AbortSignal): Promise<readonly CodeLocation[]> {
    const uri = await this.prepare(at.path);
    const started = Date.now();
    for (;;) {
      const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, toPosition(at));
      if (signal.aborted) throw new CancelledError();
      const places = (found ?? []).filter((entry) => entry.uri.scheme === 'file').map((entry) => fromPosition(entry.uri, entry.range.start));
      // A language server still loading the project answers from the open files alone (TypeScript's, for its first
      // seconds): nothing but the place asked about is asked again, for a short while, before it counts as no use.
      const elsewhere = places.some((place) => place.path !== at.path || place.line !== at.line);
      if (elsewhere || Date.now() - started >= SETTLE_MS) {
        this.log(`find_usages: ${places.length} references after ${Date.now() - started} ms`);
        return places;
      }
      await sleep(RETRY_MS, undefined, { signal }).catch(() => {
        throw new CancelledError();
      });
    }
  }

  async fileLines(path: string): Promise<readonly string[] | undefined> {
    // An open editor's text is what the language service saw; else the file on disk.
    const open = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path);
    const text = open ? open.getText() : await readFile(path, 'utf8').catch(() => undefined);
    return text?.split(/\r?\n/);
  }
}

function fromPosition(uri: vscode.Uri, position: vscode.Position): CodeLocation {
  return { path: uri.fsPath, line: position.line + 1, column: position.character + 1 };
}

function toPosition(at: CodeLocation): vscode.Position {
  return new vscode.Position(at.line - 1, at.column - 1);
}
