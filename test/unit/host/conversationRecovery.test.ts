// History finds again the conversation files its index does not list (a lost
// or failed index write), at start and from headers only, without bringing
// back what the user deleted or disturbing another window's conversation.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ConversationStore, maxConversations, type StoredConversation } from '../../../src/host/conversationStore';
import { JsonFileState, type KeyValueState } from '../../../src/host/jsonFileState';

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function folder() {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-recovery-'));
  directories.push(directory);
  const index = path.join(directory, 'index.json');
  const window = async (state?: KeyValueState) => new ConversationStore(directory, state ?? (await JsonFileState.open(index)));
  return { directory, index, window };
}

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

function started(store: ConversationStore, title: string): StoredConversation {
  const conversation = store.create();
  conversation.title = title;
  conversation.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: title } }), event('RUN_STARTED'), event('RUN_FINISHED'));
  return conversation;
}

const titles = (store: ConversationStore) => store.list().map((entry) => entry.title);
const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

describe('conversation files History does not list', () => {
  it('an existing index gains the files it does not list, by their time, and only once', async () => {
    const { directory, index, window } = await folder();
    const a = await window();
    await a.save(started(a, 'oldest'));
    await pause();
    const middle = started(a, 'middle');
    await a.save(middle);
    await pause();
    await a.save(started(a, 'newest'));
    // An index that lost two of them (a write of another window's, an index restored from a copy).
    const values = JSON.parse(await readFile(index, 'utf8'));
    values['tandem.conversations'] = values['tandem.conversations'].filter((entry: { title: string }) => entry.title === 'middle');
    values['tandem.conversations'][0].updatedAt = (await stat(path.join(directory, `${middle.id}.jsonl`))).mtimeMs; // a real time, between the two files'
    await writeFile(index, JSON.stringify(values));

    const restarted = await window();
    assert.deepEqual(titles(restarted), ['middle']);
    assert.equal(await restarted.recoverIndex(), 2);
    assert.deepEqual(titles(restarted), ['newest', 'middle', 'oldest']);
    assert.equal(await restarted.recoverIndex(), 0, 'nothing left unlisted');
    assert.equal((await window()).list().length, 3, 'written to the shared index');
  });

  it('skips files without a header for their name and never lists past the limit', async () => {
    const { directory, window } = await folder();
    const a = await window();
    await a.save(started(a, 'listed'));
    await writeFile(path.join(directory, 'not-a-conversation.jsonl'), '{"type":"RUN_STARTED"}\n');
    await writeFile(path.join(directory, 'other.jsonl'), '{"tandemConversation":1,"id":"someone-else","title":"x","createdAt":1}\n');
    assert.equal(await a.recoverIndex(), 0);
    assert.deepEqual(titles(a), ['listed']);

    const full = await window();
    const lost = started(full, 'lost');
    await full.save(lost);
    for (let count = 1; count < maxConversations; count++) await full.save(started(full, `number ${count}`));
    await full.forget(lost.id); // 99 listed: room for one
    await full.save(started(full, 'one more'));
    const unlisted = started(full, 'no room');
    await full.save(unlisted);
    await full.forget(unlisted.id);
    assert.equal(full.list().length, maxConversations - 1);
    assert.equal(await (await window()).recoverIndex(), 1);
    assert.equal((await window()).list().length, maxConversations);
  });

  it('leaves out the deleted conversation Undo can restore, also when another window deleted it meanwhile', async () => {
    const { directory, index, window } = await folder();
    const a = await window();
    const kept = started(a, 'kept');
    const deleted = started(a, 'deleted');
    await a.save(kept);
    await a.save(deleted);
    await a.delete(deleted.id);
    assert.equal(await (await window()).recoverIndex(), 0, 'its file waits for Undo, unlisted');
    assert.deepEqual(titles(await window()), ['kept']);

    // B deletes while A deletes another one between B's purge and B's own write: A's is not left behind to be listed again.
    const other = started(a, 'deleted by A meanwhile');
    await a.save(other);
    const shared = await JsonFileState.open(index);
    let writes = 0;
    const b = await window({
      get: (key) => shared.get(key),
      update: (key, value) => shared.update(key, value),
      modify: async (change) => {
        if (++writes === 2) await a.delete(other.id);
        await shared.modify(change);
      },
    });
    await b.delete(kept.id);
    assert.equal(b.deleted()?.title, 'kept');
    const files = (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));
    assert.ok(!files.includes(`${other.id}.jsonl`), 'its Undo is over and its file gone');
    const restarted = await window();
    await restarted.recoverIndex();
    assert.deepEqual(titles(restarted), []);
    assert.equal((await restarted.undoDelete())?.title, 'kept');
  });

  it("another window's conversation whose index write failed is listed once and goes on undisturbed", async () => {
    const { directory, index, window } = await folder();
    const b = await window();
    await b.save(started(b, 'first'));
    const text = await readFile(index, 'utf8');
    await rm(index);
    await mkdir(index); // B's index write fails, as onto a locked file
    const running = b.create();
    running.title = 'running in B';
    running.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'go' } }), event('RUN_STARTED'));
    await assert.rejects(b.save(running, { final: false }));
    await rm(index, { recursive: true });
    await writeFile(index, text);

    const a = await window();
    assert.equal(await a.recoverIndex(), 1);
    assert.deepEqual(titles(a), ['running in B', 'first']);
    const file = path.join(directory, `${running.id}.jsonl`);
    const before = await readFile(file, 'utf8');
    assert.doesNotMatch(before, /INTERRUPTED/, 'only its header was read: nothing written into it');

    running.events.push(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'still going' }));
    await b.save(running, { final: false });
    running.events.push(event('RUN_FINISHED'));
    await b.save(running);
    assert.deepEqual(titles(await window()), ['running in B', 'first']);
    assert.deepEqual((await (await window()).load(running.id))?.events, running.events);
  });

  it('a damaged conversation removed from History is set aside, so a later start does not list it again', async () => {
    const { directory, window } = await folder();
    const a = await window();
    const damaged = started(a, 'damaged');
    await a.save(damaged);
    await a.save(started(a, 'fine'));
    const file = path.join(directory, `${damaged.id}.jsonl`);
    // Bytes that are neither a header nor an event: listed, but it cannot be opened, nor its header restored.
    await writeFile(file, '\u0000\u0000 not json\n');
    assert.equal(await a.load(damaged.id), undefined);
    assert.deepEqual(await a.removeUnreadable(damaged.id), { readable: false, aside: `${file}.removed` });
    assert.deepEqual(titles(a), ['fine']);
    const restarted = await window();
    assert.equal(await restarted.recoverIndex(), 0, 'the set-aside file is not found again');
    assert.deepEqual(titles(restarted), ['fine']);
    assert.ok((await readdir(directory)).includes(`${damaged.id}.jsonl.removed`), 'kept for a person to look at');
    assert.deepEqual(await a.removeUnreadable('gone-already'), { readable: false, aside: undefined }, 'a missing file is no error');
  });

  it('a conversation that reads by the time the user chose to remove it stays, untouched', async () => {
    const { directory, window } = await folder();
    const a = await window();
    const fine = started(a, 'fine after all');
    await a.save(fine);
    const before = await readFile(path.join(directory, `${fine.id}.jsonl`), 'utf8');
    assert.deepEqual(await a.removeUnreadable(fine.id), { readable: true });
    assert.deepEqual(titles(a), ['fine after all']);
    assert.equal(await readFile(path.join(directory, `${fine.id}.jsonl`), 'utf8'), before);
  });
});
