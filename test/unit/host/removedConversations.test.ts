// Damaged conversations set aside from History (`<id>.jsonl.removed`) are
// kept 30 days from when they were set aside, then deleted at a start; no
// other file is touched, and a file that will not go stops nothing.
import assert from 'node:assert/strict';
import { lutimes, mkdir, mkdtemp, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ConversationStore } from '../../../src/host/conversationStore';
import { JsonFileState } from '../../../src/host/jsonFileState';
import { deleteOldRemoved, REMOVED_KEPT_MS } from '../../../src/host/removedConversations';

const DAY = 24 * 60 * 60 * 1000;
const AHEAD = 100 * DAY;
const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-removed-'));
  directories.push(directory);
  return directory;
}

/**
 * A file (or, with `folder`, a directory) last modified `daysAgo` before `now`.
 * Its change time is the real now, which a test cannot set: tests put `now`
 * far enough ahead (AHEAD) that the modified time is the later of the two.
 */
async function aged(directory: string, name: string, now: number, daysAgo: number, options: { folder?: boolean } = {}): Promise<void> {
  const file = path.join(directory, name);
  if (options.folder) await mkdir(file);
  else await writeFile(file, 'kept bytes\n');
  const time = new Date(now - daysAgo * DAY);
  await utimes(file, time, time);
}

const store = async (directory: string, now: number, warn?: (message: string) => void) =>
  new ConversationStore(directory, await JsonFileState.open(path.join(directory, 'index.json')), () => now, warn);

describe('damaged conversations set aside', () => {
  it('a start deletes the set-aside files older than 30 days and leaves every other file alone', async () => {
    const directory = await folder();
    const now = Date.now() + AHEAD;
    await aged(directory, 'old-one.jsonl.removed', now, 31);
    await aged(directory, 'recent-one.jsonl.removed', now, 29);
    // Old too, but not set-aside conversation files.
    await aged(directory, 'a-conversation.jsonl', now, 90);
    await aged(directory, 'notes.txt', now, 90);
    await aged(directory, 'old-one.jsonl.removed.bak', now, 90);
    await aged(directory, 'not a valid id.jsonl.removed', now, 90);
    await aged(directory, 'a-folder.jsonl.removed', now, 90, { folder: true });
    const warnings: string[] = [];
    await (await store(directory, now, (message) => warnings.push(message))).recoverIndex();
    assert.deepEqual((await readdir(directory)).sort(), [
      'a-conversation.jsonl',
      'a-folder.jsonl.removed',
      'not a valid id.jsonl.removed',
      'notes.txt',
      'old-one.jsonl.removed.bak',
      'recent-one.jsonl.removed',
    ]);
    assert.deepEqual(warnings, []);
  });

  it('a file set aside today is kept 30 days from today, however long ago it was last written', async () => {
    const directory = await folder();
    const now = Date.now();
    const a = await store(directory, now);
    const damaged = a.create();
    damaged.title = 'damaged';
    damaged.events.push({ type: 'RUN_STARTED' } as AgentEvent, { type: 'RUN_FINISHED' } as AgentEvent);
    await a.save(damaged);
    const file = a.fileOf(damaged.id);
    await writeFile(file, '\u0000 not json\n');
    const lastWritten = new Date(now - 60 * DAY);
    await utimes(file, lastWritten, lastWritten);
    assert.deepEqual(await a.removeUnreadable(damaged.id), { readable: false, aside: `${file}.removed` });
    assert.ok(Math.abs((await stat(`${file}.removed`)).mtimeMs - now) < 1_000, 'its time is when it was set aside');
    await (await store(directory, now + REMOVED_KEPT_MS - DAY)).recoverIndex();
    assert.ok((await readdir(directory)).includes(`${damaged.id}.jsonl.removed`), 'still there on day 29');
    await (await store(directory, now + REMOVED_KEPT_MS + DAY)).recoverIndex();
    assert.ok(!(await readdir(directory)).includes(`${damaged.id}.jsonl.removed`), 'gone at a start after day 30');
  });

  it('a file that will not go is reported and skipped; the rest go and nothing fails', async () => {
    const directory = await folder();
    const now = Date.now() + AHEAD;
    await aged(directory, 'held-open.jsonl.removed', now, 40);
    await aged(directory, 'free.jsonl.removed', now, 40);
    const failures: string[] = [];
    const held = Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' });
    const deleted = await deleteOldRemoved(
      directory,
      await readdir(directory),
      now,
      (file, error) => failures.push(`${path.basename(file)}: ${(error as Error).message}`),
      (file) => (file.endsWith('held-open.jsonl.removed') ? Promise.reject(held) : rm(file)),
    );
    assert.deepEqual(deleted, ['free.jsonl.removed']);
    assert.deepEqual(failures, ['held-open.jsonl.removed: EBUSY: resource busy or locked']);
    assert.deepEqual(await readdir(directory), ['held-open.jsonl.removed']);
  });

  it('a link by a set-aside name is not followed or deleted, nor is what it points to', async () => {
    const directory = await folder();
    const now = Date.now() + AHEAD;
    await aged(directory, 'target.jsonl', now, 60);
    await symlink(path.join(directory, 'target.jsonl'), path.join(directory, 'link.jsonl.removed'));
    const old = new Date(now - 60 * DAY);
    await lutimes(path.join(directory, 'link.jsonl.removed'), old, old);
    const failures: unknown[] = [];
    assert.deepEqual(await deleteOldRemoved(directory, await readdir(directory), now, (_file, error) => failures.push(error)), []);
    assert.deepEqual((await readdir(directory)).sort(), ['link.jsonl.removed', 'target.jsonl']);
    assert.deepEqual(failures, []);
  });

  it('a file whose modified time is from long before it was set aside (the stamp failed) is kept 30 days from its change time', async () => {
    const directory = await folder();
    const now = Date.now() + AHEAD;
    // Modified long before it was set aside (the stamp failed): its change time, the real now, is when it was set aside.
    await aged(directory, 'unstamped.jsonl.removed', Date.now(), 400);
    assert.deepEqual(await deleteOldRemoved(directory, await readdir(directory), Date.now() + REMOVED_KEPT_MS - DAY, () => undefined), [], 'kept: set aside 29 days ago by its change time');
    assert.deepEqual(await deleteOldRemoved(directory, await readdir(directory), now, () => undefined), ['unstamped.jsonl.removed']);
  });

  it('a file another window deleted meanwhile is no failure', async () => {
    const directory = await folder();
    const failures: unknown[] = [];
    assert.deepEqual(await deleteOldRemoved(directory, ['gone.jsonl.removed'], Date.now(), (_file, error) => failures.push(error)), []);
    assert.deepEqual(failures, []);
  });
});
