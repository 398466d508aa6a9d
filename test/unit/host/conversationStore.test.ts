import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { appendCompacted, ConversationStore, HistoryListError, maxConversations, titleFrom } from '../../../src/host/conversationStore';
import { TandemError } from '../../../src/common/errors';
import { JsonFileState, type KeyValueState } from '../../../src/host/jsonFileState';

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

async function store(state = new MemoryState()) {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-store-'));
  directories.push(directory);
  let clock = 1000;
  return { store: new ConversationStore(directory, state, () => clock++), directory, state };
}

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

describe('conversation store', () => {
  it('saves conversations to files and reads them back with a fresh store (a reload)', async () => {
    const { store: first, directory, state } = await store();
    const conversation = first.create();
    conversation.title = 'First question';
    conversation.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'hi' } }));
    await first.save(conversation);
    await first.setCurrent(conversation.id);

    const second = new ConversationStore(directory, state);
    assert.equal(second.currentId(), conversation.id);
    const loaded = await second.load(conversation.id);
    assert.deepEqual(loaded?.events, conversation.events);
    assert.deepEqual(second.list().map((entry) => entry.title), ['First question']);
    assert.deepEqual(await readdir(directory), [`${conversation.id}.jsonl`]);
  });

  it('keeps the history newest first, skips empty conversations and deletes', async () => {
    const { store: conversations } = await store();
    const empty = conversations.create();
    await conversations.save(empty);
    assert.equal(conversations.list().length, 0);
    const a = conversations.create();
    a.title = 'a';
    a.events.push(event('RUN_STARTED'));
    const b = conversations.create();
    b.title = 'b';
    b.events.push(event('RUN_STARTED'));
    await conversations.save(a);
    await conversations.save(b);
    const bTime = conversations.list()[0]!.updatedAt;
    // Saved with nothing new (left after being looked at): its time and place stay.
    await conversations.save(a);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['b', 'a']);
    await conversations.save(b);
    assert.equal(conversations.list()[0]!.updatedAt, bTime);
    // A new event is a use: to the top.
    a.events.push(event('RUN_FINISHED'));
    await conversations.save(a);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'b']);
    // Also when a save during the run already wrote every event, and the last save adds none.
    b.events.push(event('RUN_STARTED'), event('RUN_FINISHED'));
    await conversations.save(b, { final: false });
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'b'], 'mid-run: the index waits');
    await conversations.save(b);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['b', 'a'], 'the run ended: b was used last');
    await conversations.delete(a.id);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['b']);
    await conversations.purgeDeleted();
    assert.equal(await conversations.load(a.id), undefined);
  });

  it('a delta that arrives while a save is writing is not merged into what that save took (it would be lost on disk)', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.title = 'streaming';
    conversation.events.push(
      event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'q' } }),
      event('RUN_STARTED'),
      event('TEXT_MESSAGE_START', { messageId: 'm' }),
      event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'as the notes ' }),
    );
    const saving = conversations.save(conversation, { final: false });
    appendCompacted(conversation.events, event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'say.' }), conversations.persistedCount(conversation.id));
    await saving;
    conversation.events.push(event('TEXT_MESSAGE_END', { messageId: 'm' }), event('RUN_FINISHED'));
    await conversations.save(conversation);
    const loaded = await new ConversationStore(directory, state).load(conversation.id);
    const text = (loaded?.events ?? []).filter((each) => each.type === 'TEXT_MESSAGE_CONTENT').map((each) => String(each['delta'])).join('');
    assert.equal(text, 'as the notes say.');
  });

  it('brings the last deleted conversation back where it was, with its revert journal, until the next delete or start', async () => {
    const { store: conversations, directory, state } = await store();
    const saved = [];
    for (const title of ['c', 'b', 'a']) {
      const conversation = conversations.create();
      conversation.title = title;
      conversation.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: title } }), event('RUN_STARTED'), event('RUN_FINISHED'));
      await conversations.save(conversation);
      saved.push(conversation);
    }
    const [c, b, a] = saved as [(typeof saved)[0], (typeof saved)[0], (typeof saved)[0]];
    await conversations.runEdits.save(b.id, 'run-1', { version: 1, files: [], createdDirectories: [] });
    await conversations.setCurrent(b.id);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'b', 'c']);

    await conversations.delete(b.id);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'c']);
    assert.equal(conversations.currentId(), undefined);
    assert.equal(conversations.deleted()?.title, 'b');
    const restored = await conversations.undoDelete();
    assert.equal(restored?.id, b.id);
    assert.equal(conversations.deleted(), undefined);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'b', 'c'], 'back in its place');
    assert.deepEqual((await conversations.load(b.id))?.events, b.events, 'whole');
    assert.notEqual(await conversations.runEdits.load(b.id, 'run-1'), undefined, 'its runs can still be reverted');
    assert.equal(await conversations.undoDelete(), undefined, 'one undo per delete');

    // Only the last delete can be undone: the one before it goes for good then.
    await conversations.delete(b.id);
    await conversations.delete(c.id);
    assert.equal(await conversations.load(b.id), undefined);
    assert.equal(await conversations.runEdits.load(b.id, 'run-1'), undefined);
    assert.equal(conversations.deleted()?.title, 'c');

    // A new start (the store opened again) removes what was left deleted.
    const reopened = new ConversationStore(directory, state);
    await reopened.purgeDeleted();
    assert.equal(reopened.deleted(), undefined);
    assert.equal(await reopened.load(c.id), undefined);
    assert.deepEqual(reopened.list().map((entry) => entry.id), [a.id]);
    assert.deepEqual((await readdir(directory)).filter((name) => name.endsWith('.jsonl')), [`${a.id}.jsonl`]);
  });

  it('keeps the index in a file that a new process reads back (a restart)', async () => {
    const { directory } = await store();
    const file = path.join(directory, 'index.json');
    const first = new ConversationStore(directory, await JsonFileState.open(file));
    const conversation = first.create();
    conversation.title = 'Survives';
    conversation.events.push(event('RUN_STARTED'));
    await first.save(conversation);
    await first.setCurrent(conversation.id);

    const second = new ConversationStore(directory, await JsonFileState.open(file));
    assert.equal(second.currentId(), conversation.id);
    assert.deepEqual(second.list().map((entry) => entry.title), ['Survives']);
    assert.equal((await second.load(conversation.id))?.title, 'Survives');
    await second.setCurrent(undefined);
    assert.equal((await JsonFileState.open(file)).get('tandem.currentConversation'), undefined);
  });

  it('refuses ids that could reach outside its folder', async () => {
    const { store: conversations } = await store();
    assert.equal(await conversations.load('../../etc/passwd'), undefined);
  });

  it('merges deltas of the same message and keeps only the latest usage', () => {
    const events: AgentEvent[] = [];
    appendCompacted(events, event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'Hel' }));
    appendCompacted(events, event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'lo' }));
    appendCompacted(events, event('TEXT_MESSAGE_CONTENT', { messageId: 'n', delta: '!' }));
    appendCompacted(events, event('TOOL_CALL_ARGS', { toolCallId: 'c', delta: '{"a"' }));
    appendCompacted(events, event('TOOL_CALL_ARGS', { toolCallId: 'c', delta: ':1}' }));
    appendCompacted(events, event('CUSTOM', { name: 'tandem.usage', value: { n: 1 } }));
    appendCompacted(events, event('CUSTOM', { name: 'tandem.usage', value: { n: 2 } }));
    assert.deepEqual(
      events.map((entry) => entry['delta'] ?? (entry['value'] as { n: number }).n),
      ['Hello', '!', '{"a":1}', 2],
    );
  });

  it('appends during a run and never rewrites what is stored; streamed text is stored as far as it came', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.title = 'Long run';
    const add = (entry: AgentEvent) => appendCompacted(conversation.events, entry, conversations.persistedCount(conversation.id));
    add(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'go' } }));
    add(event('RUN_STARTED'));
    add(event('TEXT_MESSAGE_START', { messageId: 'm' }));
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'Hel' }));
    await conversations.save(conversation, { final: false });
    const file = path.join(directory, `${conversation.id}.jsonl`);
    const first = await readFile(file, 'utf8');
    assert.equal(first.trim().split('\n').length, 5, 'header, three complete events and the text streamed so far');
    assert.match(first, /"delta":"Hel"/);
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'lo' }));
    for (let index = 0; index < 50; index++) {
      add(event('TOOL_CALL_ARGS', { toolCallId: `c${index}`, delta: '{}' }));
      await conversations.save(conversation, { final: false });
      const now = await readFile(file, 'utf8');
      assert.ok(now.startsWith(first), 'earlier lines are never rewritten');
    }
    add(event('RUN_FINISHED'));
    await conversations.save(conversation);
    const reloaded = await new ConversationStore(directory, state).load(conversation.id);
    assert.deepEqual(reloaded?.events, conversation.events);
    assert.equal(
      reloaded?.events
        .filter((entry) => entry.type === 'TEXT_MESSAGE_CONTENT')
        .map((entry) => entry['delta'])
        .join(''),
      'Hello',
    );
  });

  it('a run its host never finished (a window reload mid-answer) keeps its text and ends with an INTERRUPTED error, added once', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.title = 'Story';
    const add = (entry: AgentEvent) => appendCompacted(conversation.events, entry, conversations.persistedCount(conversation.id));
    add(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Tell me a story.' } }));
    add(event('RUN_STARTED'));
    add(event('TEXT_MESSAGE_START', { messageId: 'm' }));
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'Once upon ' }));
    add(event('CUSTOM', { name: 'tandem.usage', value: { calls: 1 } }));
    await conversations.save(conversation, { final: false });
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'a time' }));
    await conversations.save(conversation, { final: false });
    // The same host opening it (History, mid-run) finds it live: nothing is added.
    assert.equal((await conversations.load(conversation.id))?.events.some((entry) => entry.type === 'RUN_ERROR'), false);

    // The host goes away; the next one reads the file.
    const next = new ConversationStore(directory, state);
    const restored = await next.load(conversation.id);
    const text = restored?.events.filter((entry) => entry.type === 'TEXT_MESSAGE_CONTENT').map((entry) => entry['delta']).join('');
    assert.equal(text, 'Once upon a time');
    const last = restored?.events.at(-1);
    assert.equal(last?.type, 'RUN_ERROR');
    assert.equal(last?.['code'], 'INTERRUPTED');
    // It cannot know whether its window went away or another window still runs it: it says both, and claims neither.
    assert.match(String(last?.['message']), /did not finish here: the window running it was reloaded or closed .*, or another window is still running it\./);
    assert.doesNotMatch(String(last?.['message']), /VS Code reloaded or closed/);
    const again = await new ConversationStore(directory, state).load(conversation.id);
    assert.equal(again?.events.filter((entry) => entry.type === 'RUN_ERROR').length, 1, 'said once');

    // A run that ended is left as it is.
    const finished = conversations.create();
    finished.events.push(event('RUN_STARTED'), event('RUN_FINISHED'));
    await conversations.save(finished);
    assert.equal((await new ConversationStore(directory, state).load(finished.id))?.events.length, 2);
  });

  it('saves during a run write the new lines only: the index is written once, however many saves', async () => {
    const state = new MemoryState();
    let indexWrites = 0;
    const update = state.update.bind(state);
    state.update = async (key, value) => {
      indexWrites++;
      await update(key, value);
    };
    const { store: conversations } = await store(state);
    const conversation = conversations.create();
    conversation.title = 'Run';
    conversation.events.push(event('RUN_STARTED'));
    await conversations.save(conversation, { final: false });
    await conversations.setCurrent(conversation.id);
    const afterFirst = indexWrites;
    for (let index = 0; index < 20; index++) {
      conversation.events.push(event('TOOL_CALL_START', { toolCallId: `c${index}` }));
      await conversations.save(conversation, { final: false });
      await conversations.setCurrent(conversation.id);
    }
    assert.equal(indexWrites, afterFirst);
  });

  it('a delta after a stored event starts a new line instead of changing the stored one', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    const add = (entry: AgentEvent) => appendCompacted(conversation.events, entry, conversations.persistedCount(conversation.id));
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'a' }));
    await conversations.save(conversation);
    add(event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'b' }));
    await conversations.save(conversation);
    const reloaded = await new ConversationStore(directory, state).load(conversation.id);
    assert.deepEqual(reloaded?.events.map((entry) => entry['delta']), ['a', 'b']);
  });

  it('recovers from a write cut short by a crash: whole lines survive, the next append starts clean', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.events.push(event('RUN_STARTED'), event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'kept' }));
    await conversations.save(conversation);
    const file = path.join(directory, `${conversation.id}.jsonl`);
    await appendFile(file, '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","del'); // the process died here

    const afterCrash = new ConversationStore(directory, state);
    const reloaded = await afterCrash.load(conversation.id);
    // What was whole survives; the run the crash cut off is said to be over.
    assert.deepEqual(reloaded?.events.slice(0, -1), conversation.events);
    assert.equal(reloaded?.events.at(-1)?.['code'], 'INTERRUPTED');
    reloaded!.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'again' } }));
    await afterCrash.save(reloaded!);
    const again = await new ConversationStore(directory, state).load(conversation.id);
    assert.deepEqual(again?.events.map((entry) => entry.type), ['RUN_STARTED', 'TEXT_MESSAGE_CONTENT', 'RUN_ERROR', 'CUSTOM']);
    assert.ok((await readFile(file, 'utf8')).endsWith('\n'));
  });

  it('skips a torn line in the middle and keeps the lines after it', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.events.push(event('RUN_STARTED'));
    await conversations.save(conversation);
    const file = path.join(directory, `${conversation.id}.jsonl`);
    await appendFile(file, '{"type":"TEXT_MES\n{"type":"RUN_FINISHED"}\n');
    const reloaded = await new ConversationStore(directory, state).load(conversation.id);
    assert.deepEqual(reloaded?.events.map((entry) => entry.type), ['RUN_STARTED', 'RUN_FINISHED']);
  });

  it('migrates a conversation stored in the old one-JSON-file format without losing it', async () => {
    const { store: conversations, directory, state } = await store();
    const id = '0f0e0d0c-1111-2222-3333-444455556666';
    const events = [event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'old question' } }), event('RUN_FINISHED')];
    await writeFile(path.join(directory, `${id}.json`), JSON.stringify({ id, title: 'Old', createdAt: 5, updatedAt: 6, events }));
    await state.update('tandem.conversations', [{ id, title: 'Old', updatedAt: 6 }]);
    const loaded = await conversations.load(id);
    assert.deepEqual(loaded?.events, events);
    assert.deepEqual(await readdir(directory), [`${id}.jsonl`]);
    loaded!.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'new question' } }));
    await conversations.save(loaded!);
    const reloaded = await new ConversationStore(directory, state).load(id);
    assert.deepEqual(reloaded?.events.map((entry) => entry.type), ['CUSTOM', 'RUN_FINISHED', 'CUSTOM']);
    assert.equal(reloaded?.title, 'Old');
  });

  it('caps a huge tool output on disk', async () => {
    const { store: conversations, directory, state } = await store();
    const conversation = conversations.create();
    conversation.events.push(event('TOOL_CALL_RESULT', { toolCallId: 'c', messageId: 'r', content: 'x'.repeat(10_000_000) }));
    await conversations.save(conversation);
    assert.ok((await stat(path.join(directory, `${conversation.id}.jsonl`))).size < 200_000);
    const reloaded = await new ConversationStore(directory, state).load(conversation.id);
    assert.match(String(reloaded?.events[0]?.['content']), /\[9900000 more characters not stored\]$/);
  });

  it('titles a conversation from the first line of its first prompt', () => {
    assert.equal(titleFrom('  Explain this\nand more'), 'Explain this');
    assert.equal(titleFrom('x'.repeat(150)), 'x'.repeat(150), 'the panel cuts it to fit; the tooltip shows all of it');
    assert.equal(titleFrom('x'.repeat(300)), `${'x'.repeat(199)}…`);
  });
});

describe('conversation store, two windows and damage', () => {
  async function twoWindows() {
    const directory = await mkdtemp(path.join(tmpdir(), 'tandem-store-'));
    directories.push(directory);
    const index = path.join(directory, 'index.json');
    const a = new ConversationStore(directory, await JsonFileState.open(index));
    const b = new ConversationStore(directory, await JsonFileState.open(index));
    return { a, b, directory, index };
  }
  const started = (store: ConversationStore, title: string) => {
    const conversation = store.create();
    conversation.title = title;
    conversation.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: title } }), event('RUN_STARTED'), event('RUN_FINISHED'));
    return conversation;
  };
  const titles = async (index: string) => (JSON.parse(await readFile(index, 'utf8')) as { 'tandem.conversations': { title: string }[] })['tandem.conversations'].map((entry) => entry.title);

  it("each window's new conversations stay in the shared history, whichever writes last", async () => {
    const { a, b, index } = await twoWindows();
    const fromA = started(a, 'from A');
    await a.save(fromA);
    await b.save(started(b, 'from B'));
    // Any write of A's (here the open conversation) keeps what B wrote since A read the file.
    await a.setCurrent(fromA.id);
    assert.deepEqual(await titles(index), ['from B', 'from A']);
    await a.save(started(a, 'from A again'));
    assert.deepEqual(await titles(index), ['from A again', 'from B', 'from A']);
    await b.delete(b.list().find((entry) => entry.title === 'from A')!.id);
    assert.deepEqual(await titles(index), ['from A again', 'from B']);
  });

  it("a save in one window while the other deletes keeps both changes, and a failed index write is retried by the next save", async () => {
    const { a, b, index } = await twoWindows();
    const doomed = started(a, 'doomed');
    await a.save(doomed);
    await Promise.all([a.delete(doomed.id), b.save(started(b, 'saved meanwhile'))]);
    assert.deepEqual(await titles(index), ['saved meanwhile']);

    const text = await readFile(index, 'utf8');
    await rm(index);
    await mkdir(index); // the rename fails, as onto a locked file
    const kept = started(a, 'kept');
    await assert.rejects(a.save(kept));
    await rm(index, { recursive: true });
    await writeFile(index, text);
    kept.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'more' } }));
    await a.save(kept);
    assert.deepEqual(await titles(index), ['kept', 'saved meanwhile']);
  });

  it("a window's start leaves another open window's deleted conversation for its Undo, and purges one whose window is gone", async () => {
    const { a, directory, index } = await twoWindows();
    const conversation = started(a, 'deleted elsewhere');
    await a.save(conversation);
    await a.delete(conversation.id);
    const file = path.join(directory, `${conversation.id}.jsonl`);
    const deletedBy = async (pid: number) => {
      const values = JSON.parse(await readFile(index, 'utf8'));
      values['tandem.deletedConversation'].by = pid;
      await writeFile(index, JSON.stringify(values));
    };
    await deletedBy(process.ppid); // a window still open
    const starting = new ConversationStore(directory, await JsonFileState.open(index));
    await starting.purgeDeleted({ atStart: true });
    assert.ok((await stat(file)).isFile(), 'still there for the other window to restore');
    assert.equal(starting.deleted()?.title, 'deleted elsewhere');
    await deletedBy(2 ** 22 + 12345); // no such process: that window is gone
    await starting.purgeDeleted({ atStart: true });
    await assert.rejects(stat(file));
  });

  it('a conversation whose file another window removed is written whole again, header first, and listed again', async () => {
    const { a, b, directory, index } = await twoWindows();
    const kept = started(a, 'kept by A');
    await a.save(kept);
    await b.delete(kept.id);
    await b.save(started(b, 'B deletes again')); // a second delete purges the first one's files
    await b.delete(b.list()[0]!.id);
    await assert.rejects(stat(path.join(directory, `${kept.id}.jsonl`)));
    kept.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'A goes on' } }));
    await a.save(kept);
    const reloaded = await new ConversationStore(directory, await JsonFileState.open(index)).load(kept.id);
    assert.deepEqual(reloaded?.events, kept.events);
    assert.ok((await titles(index)).includes('kept by A'));
  });

  it('a run another window may still be running is shown as cut off but not stored so until this window writes', async () => {
    const { a, b, directory } = await twoWindows();
    const running = a.create();
    running.title = 'long answer';
    running.events.push(event('RUN_STARTED'), event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'so far' }));
    await a.save(running, { final: false });
    const seenByB = await b.load(running.id);
    assert.equal(seenByB?.events.at(-1)?.['code'], 'INTERRUPTED');
    const file = path.join(directory, `${running.id}.jsonl`);
    assert.doesNotMatch(await readFile(file, 'utf8'), /INTERRUPTED/);
    // B only looked: leaving it (which saves) neither stores the notice nor makes it the latest.
    const listedBefore = b.list().find((entry) => entry.id === running.id)?.updatedAt;
    await b.save(seenByB!);
    assert.doesNotMatch(await readFile(file, 'utf8'), /INTERRUPTED/);
    assert.equal(b.list().find((entry) => entry.id === running.id)?.updatedAt, listedBefore);
    running.events.push(event('RUN_FINISHED'));
    await a.save(running);
    assert.equal((await b.load(running.id))?.events.at(-1)?.type, 'RUN_FINISHED', 'finished where it ran');
    // A window that goes on with a conversation whose run nobody finished stores the notice before its own events.
    const cut = a.create();
    cut.events.push(event('RUN_STARTED'));
    await a.save(cut, { final: false });
    const goesOn = (await b.load(cut.id))!;
    goesOn.events.push(event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'again' } }));
    await b.save(goesOn);
    assert.deepEqual((await new ConversationStore(directory, new MemoryState()).load(cut.id))?.events.map((entry) => entry['code'] ?? entry.type), ['RUN_STARTED', 'INTERRUPTED', 'CUSTOM']);
  });

  it('one failed index write does not stop the later ones, and leaves no temporary file', async () => {
    const { a, directory, index } = await twoWindows();
    await a.save(started(a, 'first'));
    // A directory where the index's file should be makes the rename fail, as a locked file would.
    const text = await readFile(index, 'utf8');
    await rm(index);
    await mkdir(index);
    const locked = started(a, 'while locked');
    // One of the project's errors, saying which write failed and carrying why.
    await assert.rejects(a.save(locked), (error: unknown) => {
      assert.ok(error instanceof HistoryListError && error instanceof TandemError);
      assert.equal(error.name, 'HistoryListError');
      assert.ok(error.cause instanceof Error && error.message.includes(error.cause.message));
      return true;
    });
    await rm(index, { recursive: true });
    await writeFile(index, text);
    await a.save(started(a, 'after'));
    assert.deepEqual(await titles(index), ['after', 'while locked', 'first']);
    assert.deepEqual((await readdir(directory)).filter((name) => name.endsWith('.tmp')), []);
  });

  it('an unreadable index is set aside and the history rebuilt from the conversation files, newest first', async () => {
    const { a, directory, index } = await twoWindows();
    const older = started(a, 'older');
    await a.save(older);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await a.save(started(a, 'newer'));
    const text = await readFile(index, 'utf8');
    await writeFile(index, text.slice(0, text.length / 2));
    const state = await JsonFileState.open(index);
    assert.match(path.basename(state.setAside ?? ''), /^index\.json\.damaged-\d+$/);
    assert.equal(await readFile(state.setAside!, 'utf8'), text.slice(0, text.length / 2), 'kept as it was');
    const reopened = new ConversationStore(directory, state);
    assert.equal(await reopened.recoverIndex(), 2);
    assert.deepEqual(reopened.list().map((entry) => entry.title), ['newer', 'older']);
    assert.equal((await reopened.load(older.id))?.events.length, 3);
    assert.equal(await reopened.recoverIndex(), 0, 'nothing left unlisted');
  });

  it('stray bytes before the header, or a header lost to an earlier version, do not make a conversation unreadable', async () => {
    const { a, directory } = await twoWindows();
    const conversation = started(a, 'intact');
    await a.save(conversation);
    const file = path.join(directory, `${conversation.id}.jsonl`);
    const text = await readFile(file, 'utf8');
    await writeFile(file, `\0\0garbage-before-header\n${text}`);
    assert.deepEqual((await a.load(conversation.id))?.events, conversation.events);
    // Only events, no header line: it is put back from the history's entry.
    await writeFile(file, text.slice(text.indexOf('\n') + 1));
    assert.deepEqual((await a.load(conversation.id))?.events, conversation.events);
    assert.match((await readFile(file, 'utf8')).split('\n')[0]!, /"tandemConversation":1/);
  });

  it('History has room for a fixed number: a save past it reports which it deleted', async () => {
    const { a } = await twoWindows();
    const first = started(a, 'the first');
    assert.deepEqual((await a.save(first)).dropped, []);
    for (let count = 1; count < maxConversations; count++) await a.save(started(a, `number ${count}`));
    const { dropped } = await a.save(started(a, 'one too many'));
    assert.deepEqual(dropped.map((entry) => entry.title), ['the first']);
    assert.equal(a.list().length, maxConversations);
  });
});
