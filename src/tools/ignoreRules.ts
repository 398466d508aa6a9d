// .gitignore (in any folder, as git and ripgrep read them) and .tandemignore
// (at a workspace folder's root; the user's "keep the agent out" list) for one
// workspace folder. Rules are read fresh for each tool call, so a change to an
// ignore file takes effect at once.

import { closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const TANDEM_IGNORE_FILE = '.tandemignore';
export const GIT_IGNORE_FILE = '.gitignore';

/** The rules of one .gitignore file and the folder (relative, '' for root) it applies to. */
export interface IgnoreLayer {
  readonly base: string;
  readonly rules: Ignore;
}

export class IgnoreRules {
  private readonly gitignores = new Map<string, Promise<Ignore | undefined>>();
  private tandemRules: Promise<Ignore | undefined> | undefined;

  constructor(private readonly folderReal: string) {}

  /** The .tandemignore rules of the folder, if it has that file. */
  tandem(): Promise<Ignore | undefined> {
    this.tandemRules ??= loadRules(path.join(this.folderReal, TANDEM_IGNORE_FILE));
    return this.tandemRules;
  }

  /** The .gitignore rules that apply inside `dirRelative`, root first. */
  async layersFor(dirRelative: string): Promise<IgnoreLayer[]> {
    const layers: IgnoreLayer[] = [];
    const parts = dirRelative === '' ? [] : dirRelative.split('/');
    for (let depth = 0; depth <= parts.length; depth += 1) {
      const base = parts.slice(0, depth).join('/');
      const rules = await this.gitignoreOf(base);
      if (rules !== undefined) layers.push({ base, rules });
    }
    return layers;
  }

  /** Layers for a child folder, given its parent's; `hasGitignore` saves a failed read. */
  async childLayers(parent: readonly IgnoreLayer[], dirRelative: string, hasGitignore: boolean): Promise<readonly IgnoreLayer[]> {
    if (!hasGitignore) return parent;
    const rules = await this.gitignoreOf(dirRelative);
    return rules === undefined ? parent : [...parent, { base: dirRelative, rules }];
  }

  /**
   * Which file ignores this path, checking the path itself only (a walker
   * checks each level as it descends). Undefined when it is not ignored.
   */
  static matchIn(layers: readonly IgnoreLayer[], tandem: Ignore | undefined, relative: string, isDirectory: boolean): string | undefined {
    const suffix = isDirectory ? '/' : '';
    if (tandem?.test(relative + suffix).ignored === true) return TANDEM_IGNORE_FILE;
    let ignored = false;
    for (const layer of layers) {
      const inner = layer.base === '' ? relative : relative.slice(layer.base.length + 1);
      const result = layer.rules.test(inner + suffix);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored ? GIT_IGNORE_FILE : undefined;
  }

  /** Which file ignores this path or one of its parent folders, if any. */
  async ignoredBy(relative: string, isDirectory: boolean): Promise<string | undefined> {
    if (relative === '') return undefined;
    const tandem = await this.tandem();
    const parts = relative.split('/');
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const here = parts.slice(0, depth).join('/');
      const parentDir = parts.slice(0, depth - 1).join('/');
      const layers = await this.layersFor(parentDir);
      const isDir = depth < parts.length || isDirectory;
      const by = IgnoreRules.matchIn(layers, tandem, here, isDir);
      if (by !== undefined) return by;
    }
    return undefined;
  }

  private gitignoreOf(dirRelative: string): Promise<Ignore | undefined> {
    let rules = this.gitignores.get(dirRelative);
    if (rules === undefined) {
      rules = loadRules(path.join(this.folderReal, dirRelative, GIT_IGNORE_FILE));
      this.gitignores.set(dirRelative, rules);
    }
    return rules;
  }
}

/** The most of an ignore file read; rules past it are not applied. */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

// Only a regular file is read, as git reads .gitignore (not through a link): a
// committed `.gitignore -> /dev/zero` would otherwise be read without end.
async function loadRules(file: string): Promise<Ignore | undefined> {
  const text = await readIgnoreFile(file);
  return text === undefined ? undefined : rulesOf(text);
}

/** An ignore file's text, if it is a regular file (not through a link), cut at MAX_IGNORE_FILE_BYTES. */
export async function readIgnoreFile(file: string): Promise<string | undefined> {
  try {
    if (!(await lstat(file)).isFile()) return undefined;
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min((await handle.stat()).size, MAX_IGNORE_FILE_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The same, synchronously: for a check that runs inside a stream's data handler. */
export function loadRulesSync(file: string): Ignore | undefined {
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return undefined;
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, MAX_IGNORE_FILE_BYTES));
      const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.toString('utf8', 0, bytesRead);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return rulesOf(text);
}

/**
 * Whether an ignore file (a regular file, not through a link) starts with a
 * UTF-8 byte order mark: ripgrep 13 reads the mark as part of the first rule,
 * which then matches nothing, where git and the ignore library drop it.
 */
export function startsWithByteOrderMarkSync(file: string): boolean {
  try {
    if (!lstatSync(file).isFile()) return false;
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(3);
      return readSync(fd, buffer, 0, 3, 0) === 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function rulesOf(text: string): Ignore {
  // Case-sensitive, as git and ripgrep are on Linux; keeps both search paths in agreement.
  return ignore({ ignorecase: false }).add(text);
}
