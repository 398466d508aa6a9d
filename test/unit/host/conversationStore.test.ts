import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { appendCompacted, ConversationStore, JsonFileState, titleFrom, type KeyValueState } from '../../../src/host/conversationStore';

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
    assert.deepEqual(await readdir(directory), [`${conversation.id}.json`]);
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
    await conversations.save(a);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['a', 'b']);
    await conversations.delete(a.id);
    assert.deepEqual(conversations.list().map((entry) => entry.title), ['b']);
    assert.equal(await conversations.load(a.id), undefined);
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

  it('titles a conversation from the first line of its first prompt', () => {
    assert.equal(titleFrom('  Explain this\nand more'), 'Explain this');
    assert.equal(titleFrom('x'.repeat(100)).length, 60);
  });
});
