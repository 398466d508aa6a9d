// History's limit on real files: the conversation a save (or an Undo) pushes
// past maxConversations leaves the list, is reported as dropped, and its log
// and its runs' edit journals are deleted from disk; the others stay.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ConversationStore, maxConversations, type StoredConversation } from '../../../src/host/conversationStore';
import { JsonFileState } from '../../../src/host/jsonFileState';
import type { JournalRunSnapshot } from '../../../src/tools/editJournalSnapshot';

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

const journal: JournalRunSnapshot = { version: 1, files: [{ path: '/work/a.txt', before: null, after: 'a'.repeat(64) }], createdDirectories: [] };

async function fullHistory() {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-history-limit-'));
  directories.push(directory);
  const index = path.join(directory, 'index.json');
  let clock = 1_000;
  const store = new ConversationStore(directory, await JsonFileState.open(index), () => clock++);
  const started = (title: string): StoredConversation => {
    const conversation = store.create();
    conversation.title = title;
    conversation.events.push({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: title } } as AgentEvent, { type: 'RUN_STARTED' } as AgentEvent, { type: 'RUN_FINISHED' } as AgentEvent);
    return conversation;
  };
  const saved: StoredConversation[] = [];
  for (let count = 0; count < maxConversations; count++) {
    const conversation = started(`conversation ${count}`);
    assert.deepEqual((await store.save(conversation)).dropped, [], 'room for it');
    saved.push(conversation);
  }
  const logs = async () => (await readdir(directory)).filter((name) => name.endsWith('.jsonl')).sort();
  const listedOnDisk = async () => (JSON.parse(await readFile(index, 'utf8')) as { 'tandem.conversations': { id: string }[] })['tandem.conversations'].map((entry) => entry.id);
  return { directory, index, store, started, saved, logs, listedOnDisk };
}

describe('History limit', () => {
  it('a save past the limit deletes the oldest conversation\'s file and journals, and reports it as dropped', async () => {
    const { directory, index, store, started, saved, logs, listedOnDisk } = await fullHistory();
    const oldest = saved[0]!;
    await store.runEdits.save(oldest.id, 'run-1', journal);
    await store.runEdits.save(saved[1]!.id, 'run-1', journal);
    assert.equal((await logs()).length, maxConversations);
    assert.ok((await readdir(directory)).includes(`${oldest.id}.edits`));

    const newest = started('one too many');
    const { dropped } = await store.save(newest);
    assert.deepEqual(
      dropped.map((entry) => [entry.id, entry.title]),
      [[oldest.id, 'conversation 0']],
    );
    const remaining = await logs();
    assert.equal(remaining.length, maxConversations);
    assert.ok(!remaining.includes(`${oldest.id}.jsonl`), 'the dropped conversation\'s log is deleted');
    assert.ok(remaining.includes(`${newest.id}.jsonl`) && remaining.includes(`${saved[1]!.id}.jsonl`), 'the others stay');
    assert.ok(!(await readdir(directory)).includes(`${oldest.id}.edits`), 'its runs\' edit journals go with it');
    assert.deepEqual(await store.runEdits.load(saved[1]!.id, 'run-1'), journal, 'another conversation\'s journal stays');
    assert.equal(await store.load(oldest.id), undefined);

    // The list on disk, as a restarted window reads it, agrees with the files.
    const ids = await listedOnDisk();
    assert.equal(ids.length, maxConversations);
    assert.equal(ids[0], newest.id);
    assert.ok(!ids.includes(oldest.id));
    const restarted = new ConversationStore(directory, await JsonFileState.open(index));
    assert.deepEqual(new Set(restarted.list().map((entry) => `${entry.id}.jsonl`)), new Set(remaining));
  });

  it('an Undo that brings a deleted conversation back into a full History drops the last one and deletes its file', async () => {
    const { store, started, saved, logs } = await fullHistory();
    const removed = saved[50]!;
    await store.delete(removed.id);
    assert.ok((await logs()).includes(`${removed.id}.jsonl`), 'kept for Undo');
    // The freed place is taken, so the restored entry has no room unless the last goes.
    assert.deepEqual((await store.save(started('the place taken'))).dropped, []);
    const last = store.list().at(-1)!;
    assert.equal(last.id, saved[0]!.id);

    assert.equal((await store.undoDelete())?.id, removed.id);
    assert.equal(store.list().length, maxConversations);
    assert.ok(store.list().some((entry) => entry.id === removed.id));
    assert.ok(!store.list().some((entry) => entry.id === last.id));
    const remaining = await logs();
    assert.equal(remaining.length, maxConversations);
    assert.ok(!remaining.includes(`${last.id}.jsonl`), 'the one pushed out is deleted');
    assert.ok(remaining.includes(`${removed.id}.jsonl`));
  });
});
