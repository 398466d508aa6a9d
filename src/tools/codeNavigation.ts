// What a host's language services say about code, as find_usages sees it: a
// narrow interface the VS Code host implements (src/host/vscodeCodeNavigation.ts)
// over VS Code's own providers (workspace symbols, go to definition, find all
// references), which every language extension feeds. No vscode import.

/** A place in a file; line and column 1-based. */
export interface CodeLocation {
  /** Absolute path. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
}

export interface SymbolDefinition extends CodeLocation {
  readonly name: string;
  /** `function`, `class`, `variable`, ... as the language service names it. */
  readonly kind: string;
  /** The class or module it belongs to, when the service says. */
  readonly container?: string | undefined;
}

export interface CodeNavigation {
  /** Symbols named exactly `name`, from the workspace symbol search (which may know only the projects loaded). */
  definitions(name: string, signal: AbortSignal): Promise<readonly SymbolDefinition[]>;
  /** Where what stands at `at` is defined (go to definition); empty when nothing says. */
  definitionsAt(at: CodeLocation, signal: AbortSignal): Promise<readonly CodeLocation[]>;
  /** Every use of what stands at `at`, its declaration included (find all references). */
  references(at: CodeLocation, signal: AbortSignal): Promise<readonly CodeLocation[]>;
  /** A file's lines as the editor has them (unsaved changes included); undefined when it cannot be read. */
  fileLines(path: string): Promise<readonly string[] | undefined>;
}
