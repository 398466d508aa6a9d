// The stored form of one run's edit journal, kept beside its conversation so
// "Revert this run's edits" still works after a window reload or when the
// conversation is reopened from history. Plain JSON; checked with zod when
// read back, since the file may be damaged or from another version.

import { createHash } from 'node:crypto';
import { z } from 'zod';

export interface JournalFileSnapshot {
  /** Absolute path. */
  readonly path: string;
  /** Base64 of the bytes before the run's first change; null when the run created the file. */
  readonly before: string | null;
  /** The file's permission bits before the run (absent: unknown, or the run created it). */
  readonly mode?: number | undefined;
  /** Digest of what the run left there (contentDigest); null when the run deleted the file. */
  readonly after: string | null;
}

export interface JournalRunSnapshot {
  readonly version: 1;
  /** In the order first touched. */
  readonly files: readonly JournalFileSnapshot[];
  readonly createdDirectories: readonly string[];
}

const absolutePath = z.string().min(1).refine((value) => value.startsWith('/') || /^[A-Za-z]:[\\/]/u.test(value), 'not an absolute path');

const snapshotSchema = z.object({
  version: z.literal(1),
  files: z.array(z.object({ path: absolutePath, before: z.string().nullable(), mode: z.number().int().min(0).max(0o7777).optional(), after: z.string().regex(/^[0-9a-f]{64}$/u).nullable() })),
  createdDirectories: z.array(absolutePath),
});

/** The snapshot in `value`, or undefined when it is not one (damaged, another version). */
export function parseJournalSnapshot(value: unknown): JournalRunSnapshot | undefined {
  const parsed = snapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * What "the file still holds what the run wrote" compares: SHA-256 of the
 * bytes with CRLF read as LF, because an editor may keep a document's own line
 * endings when the run's text is applied to it.
 */
export function contentDigest(content: Uint8Array): string {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1');
  return createHash('sha256').update(text.replace(/\r\n/gu, '\n'), 'latin1').digest('hex');
}
