import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ConversationStore } from '../../../src/host/conversationStore';
import type { KeyValueState } from '../../../src/host/jsonFileState';
import { RunEditsStore } from '../../../src/host/runEditsStore';
import type { JournalRunSnapshot } from '../../../src/tools/editJournalSnapshot';

class MemoryState implements KeyValueState {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-run-edits-'));
  directories.push(directory);
  return directory;
}

const snapshot: JournalRunSnapshot = {
  version: 1,
  files: [{ path: '/work/a.txt', before: Buffer.from('before\n').toString('base64'), after: 'a'.repeat(64) }],
  createdDirectories: ['/work/new'],
};

describe('run edits store', () => {
  it('keeps a run journal per conversation and reads it back with a fresh store (a reload)', async () => {
    const directory = await scratch();
    await new RunEditsStore(directory).save('conv-1', 'run-1', snapshot);
    const fresh = new RunEditsStore(directory);
    assert.deepEqual(await fresh.load('conv-1', 'run-1'), snapshot);
    assert.equal(await fresh.load('conv-1', 'run-2'), undefined);
    assert.equal(await fresh.load('conv-2', 'run-1'), undefined, 'per conversation');
    await fresh.remove('conv-1', 'run-1');
    assert.equal(await fresh.load('conv-1', 'run-1'), undefined);
  });

  it('a damaged record reads as none', async () => {
    const directory = await scratch();
    const store = new RunEditsStore(directory);
    await store.save('conv-1', 'run-1', snapshot);
    await writeFile(path.join(directory, 'conv-1.edits', 'run-1.json'), '{"version":1,"files":[', 'utf8');
    assert.equal(await store.load('conv-1', 'run-1'), undefined);
  });

  it('refuses ids that could leave its folder', async () => {
    const store = new RunEditsStore(await scratch());
    await assert.rejects(store.save('../x', 'run-1', snapshot), /Not a conversation id/u);
    await assert.rejects(store.save('conv-1', '../../x', snapshot), /Not a run id/u);
  });

  it('goes with its conversation when that is deleted for good', async () => {
    const directory = await scratch();
    const store = new ConversationStore(directory, new MemoryState());
    const conversation = store.create();
    conversation.events.push({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'hi' } } as AgentEvent);
    await store.save(conversation);
    await store.runEdits.save(conversation.id, 'run-1', snapshot);
    assert.ok((await readdir(directory)).includes(`${conversation.id}.edits`));
    await store.delete(conversation.id);
    assert.ok((await readdir(directory)).includes(`${conversation.id}.edits`), 'kept while Undo can restore it');
    await store.purgeDeleted();
    assert.equal((await readdir(directory)).includes(`${conversation.id}.edits`), false);
  });
});
