// Writes a synthetic source tree for the search test and benchmark: 20,000
// searchable files plus ignored ones, with a known number of needle lines.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * A fresh folder for a generated tree: in memory (/dev/shm) where there is
 * one, since writing 20,000 files to a busy disk takes seconds, else the temp dir.
 */
export function scratchDirForTree(prefix: string): string {
  try {
    return mkdtempSync(path.join('/dev/shm', prefix));
  } catch {
    return mkdtempSync(path.join(tmpdir(), prefix));
  }
}

export interface SearchTreeFacts {
  /** Searchable (not ignored) files. */
  readonly files: number;
  /** Lines containing NEEDLE in searchable files (case-insensitive count equals this too). */
  readonly needleLines: number;
  /** Files with at least one needle line. */
  readonly needleFiles: number;
  /** Needle lines in files whose name ends with .ts. */
  readonly needleLinesInTs: number;
}

export const NEEDLE = 'tandemNeedle';

export function generateSearchTree(root: string, options: { files?: number; dirs?: number } = {}): SearchTreeFacts {
  const files = options.files ?? 20_000;
  const dirs = options.dirs ?? 200;
  const perDir = Math.ceil(files / dirs);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n!keep.log\n');
  writeFileSync(path.join(root, '.tandemignore'), 'secrets/\n');
  let written = 0;
  let needleLines = 0;
  let needleFiles = 0;
  let needleLinesInTs = 0;
  for (let dir = 0; dir < dirs && written < files; dir += 1) {
    const dirPath = path.join(root, 'src', `pkg${dir % 20}`, `mod${dir}`);
    mkdirSync(dirPath, { recursive: true });
    for (let index = 0; index < perDir && written < files; index += 1) {
      const extension = index % 3 === 0 ? 'ts' : index % 3 === 1 ? 'js' : 'md';
      const lines: string[] = [];
      for (let line = 0; line < 40; line += 1) lines.push(`// file ${written} line ${line}: the quick brown fox jumps over the lazy dog ${line * written}`);
      // Every 7th file holds the needle once; every 70th twice (once upper-cased).
      if (written % 7 === 0) {
        lines[10] = `export const value${written} = '${NEEDLE}';`;
        needleLines += 1;
        if (extension === 'ts') needleLinesInTs += 1;
        if (written % 70 === 0) {
          lines[30] = `// ${NEEDLE.toUpperCase()} appears in capitals here`;
          needleLines += 1;
          if (extension === 'ts') needleLinesInTs += 1;
        }
        needleFiles += 1;
      }
      writeFileSync(path.join(dirPath, `file${index}.${extension}`), `${lines.join('\n')}\n`);
      written += 1;
    }
  }
  // Ignored content that holds the needle: none of it may be found.
  for (const ignoredDir of ['build', 'secrets', path.join('src', 'pkg1', 'build')]) {
    mkdirSync(path.join(root, ignoredDir), { recursive: true });
    for (let index = 0; index < 50; index += 1) writeFileSync(path.join(root, ignoredDir, `out${index}.js`), `${NEEDLE}\n`);
  }
  writeFileSync(path.join(root, 'src', 'debug.log'), `${NEEDLE}\n`);
  // Negated in .gitignore: searchable.
  writeFileSync(path.join(root, 'src', 'keep.log'), `${NEEDLE}\n`);
  // Binary: skipped by both engines.
  writeFileSync(path.join(root, 'src', 'blob.bin'), Buffer.concat([Buffer.from(`${NEEDLE}\n`), Buffer.alloc(16)]));
  mkdirSync(path.join(root, '.git'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'HEAD'), `${NEEDLE}\n`);
  return { files: written + 1, needleLines: needleLines + 1, needleFiles: needleFiles + 1, needleLinesInTs };
}
