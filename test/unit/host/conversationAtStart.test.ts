// Which conversation a panel opens: at start the one used last, or a new one
// (said, with the file's place) when that one cannot be opened; at the page's
// first `ready` the one that page showed before, not another window's.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { openProblemMessage, openStored, PanelReopen } from '../../../src/host/conversationAtStart';
import { ConversationStore, type StoredConversation } from '../../../src/host/conversationStore';
import { JsonFileState } from '../../../src/host/jsonFileState';

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function folder() {
  const directory = await mkdtemp(path.join(tmpdir(), 'tandem-at-start-'));
  directories.push(directory);
  const index = path.join(directory, 'index.json');
  return { directory, window: async () => new ConversationStore(directory, await JsonFileState.open(index)) };
}

async function saved(store: ConversationStore, title: string): Promise<StoredConversation> {
  const conversation = store.create();
  conversation.title = title;
  conversation.events.push({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: title } } as AgentEvent, { type: 'RUN_STARTED' } as AgentEvent, { type: 'RUN_FINISHED' } as AgentEvent);
  await store.save(conversation);
  return conversation;
}

/** What ChatViewProvider does at start: the last used, else a new conversation. */
async function started(store: ConversationStore) {
  const { conversation } = await openStored(store, store.currentId());
  return { current: conversation ?? store.create(), running: false };
}

describe('the conversation a window opens at start', () => {
  it('one that cannot be opened gives a new conversation and says where its file is, instead of stopping the panel', async () => {
    const { directory, window } = await folder();
    const store = await window();
    const broken = await saved(store, 'broken');
    await store.setCurrent(broken.id);
    // Its header is lost, and putting it back cannot be written (a directory where the temporary file goes).
    const file = path.join(directory, `${broken.id}.jsonl`);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(text.indexOf('\n') + 1));
    await mkdir(`${file}.${process.pid}.tmp`);
    const restarted = await window();
    await assert.rejects(restarted.load(broken.id), 'load itself throws');

    const opened = await openStored(restarted, restarted.currentId());
    assert.equal(opened.conversation, undefined);
    assert.equal(opened.problem?.file, file);
    assert.match(opened.problem?.reason ?? '', /EISDIR/);
    const message = openProblemMessage(opened.problem!);
    assert.match(message, /could not open the last conversation/);
    assert.ok(message.includes(file), message);
    assert.match(message, /starts a new one/);
    assert.equal(await readFile(file, 'utf8'), text.slice(text.indexOf('\n') + 1), 'the file is left as it was');
  });

  it('none noted, or one whose file is gone: a new conversation, nothing to say', async () => {
    const { window } = await folder();
    const store = await window();
    assert.deepEqual(await openStored(store, undefined), { conversation: undefined });
    assert.deepEqual(await openStored(store, 'no-such-conversation'), { conversation: undefined });
  });
});

describe("the conversation a panel's first ready reopens", () => {
  it('each window reopens the conversation its own panel showed, not the one another window used last', async () => {
    const { window } = await folder();
    const a = await window();
    const b = await window();
    const mine = await saved(a, 'shown in A');
    await a.setCurrent(mine.id);
    const theirs = await saved(b, 'shown in B');
    await b.setCurrent(theirs.id); // B used last: the one shared value names B's

    const reloaded = await window();
    const session = await started(reloaded);
    assert.equal(session.current.id, theirs.id, 'at start: the last used, in any window');
    const reopened = await new PanelReopen(reloaded, session.current).choose(mine.id, session);
    assert.equal(reopened?.conversation?.id, mine.id);
    assert.deepEqual(reopened?.conversation?.events, mine.events);
  });

  it('a page with no state keeps the last used; a page showing that one keeps it; only the first ready decides', async () => {
    const { window } = await folder();
    const store = await window();
    const last = await saved(store, 'last');
    const other = await saved(store, 'other');
    await store.setCurrent(last.id);
    const session = await started(store);
    assert.equal(await new PanelReopen(store, session.current).choose(undefined, session), undefined, 'a brand-new panel');
    assert.equal(await new PanelReopen(store, session.current).choose(last.id, session), undefined, 'already open');
    const reopen = new PanelReopen(store, session.current);
    assert.equal(await reopen.choose(undefined, session), undefined);
    assert.equal(await reopen.choose(other.id, session), undefined, 'a later ready (a hidden page shown again) changes nothing');
  });

  it('a panel used before its page was up keeps what the user did', async () => {
    const { window } = await folder();
    const store = await window();
    const last = await saved(store, 'last');
    const shown = await saved(store, 'shown');
    await store.setCurrent(last.id);
    const session = await started(store);
    const atStart = session.current;
    // New Chat from the command palette.
    assert.equal(await new PanelReopen(store, atStart).choose(shown.id, { current: store.create(), running: false }), undefined);
    // Ask About Selection: a run going, or one that already added to the conversation.
    assert.equal(await new PanelReopen(store, atStart).choose(shown.id, { current: atStart, running: true }), undefined);
    const reopen = new PanelReopen(store, atStart);
    atStart.events.push({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'asked' } } as AgentEvent);
    assert.equal(await reopen.choose(shown.id, session), undefined);
  });

  it('a page that showed a new chat, or a conversation deleted since, gets a new conversation', async () => {
    const { window } = await folder();
    const store = await window();
    const last = await saved(store, 'last');
    const deleted = await saved(store, 'deleted');
    await store.delete(deleted.id); // its file stays for Undo
    await store.setCurrent(last.id);
    const session = await started(store);
    assert.deepEqual(await new PanelReopen(store, session.current).choose(deleted.id, session), { conversation: undefined });
    assert.deepEqual(await new PanelReopen(store, session.current).choose(store.create().id, session), { conversation: undefined });
    assert.equal(store.list().some((entry) => entry.id === deleted.id), false, 'not listed again');
  });

  it('a shown conversation that cannot be opened gives a new one and the reason, not the last used', async () => {
    const { directory, window } = await folder();
    const store = await window();
    const last = await saved(store, 'last');
    const shown = await saved(store, 'shown');
    await store.setCurrent(last.id);
    const file = path.join(directory, `${shown.id}.jsonl`);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(text.indexOf('\n') + 1));
    await mkdir(`${file}.${process.pid}.tmp`);
    const restarted = await window();
    const session = await started(restarted);
    const reopened = await new PanelReopen(restarted, session.current).choose(shown.id, session);
    assert.equal(reopened?.conversation, undefined);
    assert.equal(reopened?.problem?.file, file);
  });
});
