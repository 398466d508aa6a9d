// Conversations on disk, one JSON file each, so they survive a window reload
// and a restart; the index (titles, order, the open one) in a small state
// object, a JSON file beside them in the extension. No `vscode` import.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentEvent } from '../protocol/agentEvents';
import type { ConversationSummary } from '../protocol/webviewMessages';

export interface StoredConversation {
  readonly id: string;
  title: string;
  readonly createdAt: number;
  updatedAt: number;
  /** The panel's stream: the loop's events plus the host's own (prompts, edits). */
  readonly events: AgentEvent[];
}

/** The part of vscode.Memento the store needs. */
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/**
 * A KeyValueState in a JSON file beside the conversations, written at once
 * and atomically: a Memento may not reach the disk when VS Code is killed,
 * and then the files would be there but not the history that finds them.
 */
export class JsonFileState implements KeyValueState {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly values: Record<string, unknown>,
  ) {}

  static async open(file: string): Promise<JsonFileState> {
    let values: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
    } catch {
      // No index yet (or an unreadable one): start empty; the conversation files stay.
    }
    return new JsonFileState(file, values);
  }

  get<T>(key: string): T | undefined {
    return this.values[key] as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) delete this.values[key];
    else this.values[key] = value;
    const text = JSON.stringify(this.values);
    this.writing = this.writing.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, this.file);
    });
    await this.writing;
  }
}

const indexKey = 'tandem.conversations';
const currentKey = 'tandem.currentConversation';
const maxConversations = 100;

/**
 * Appends an event, merging a delta into the previous one when both continue
 * the same message or tool call, and keeping only the latest usage figures:
 * a stored conversation replays the same but is far smaller than the stream.
 */
export function appendCompacted(events: AgentEvent[], event: AgentEvent): void {
  const last = events[events.length - 1];
  if (last && last.type === event.type) {
    const mergeable =
      event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'REASONING_MESSAGE_CONTENT'
        ? last['messageId'] === event['messageId']
        : event.type === 'TOOL_CALL_ARGS'
          ? last['toolCallId'] === event['toolCallId']
          : false;
    if (mergeable) {
      events[events.length - 1] = { ...last, delta: String(last['delta'] ?? '') + String(event['delta'] ?? '') };
      return;
    }
    if (event.type === 'CUSTOM' && event['name'] === 'tandem.usage' && last['name'] === 'tandem.usage') {
      events[events.length - 1] = event;
      return;
    }
  }
  events.push(event);
}

export class ConversationStore {
  constructor(
    private readonly directory: string,
    private readonly state: KeyValueState,
    private readonly now: () => number = Date.now,
  ) {}

  create(): StoredConversation {
    const time = this.now();
    return { id: randomUUID(), title: '', createdAt: time, updatedAt: time, events: [] };
  }

  list(): ConversationSummary[] {
    return [...(this.state.get<ConversationSummary[]>(indexKey) ?? [])];
  }

  currentId(): string | undefined {
    return this.state.get<string>(currentKey);
  }

  async setCurrent(id: string | undefined): Promise<void> {
    await this.state.update(currentKey, id);
  }

  private file(id: string): string {
    if (!/^[A-Za-z0-9-]{1,100}$/.test(id)) throw new Error(`Not a conversation id: ${id}`);
    return path.join(this.directory, `${id}.json`);
  }

  async load(id: string): Promise<StoredConversation | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.file(id), 'utf8')) as StoredConversation;
      return Array.isArray(parsed.events) && parsed.id === id ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Writes the file atomically (temp file + rename) and moves it to the top of the index. */
  async save(conversation: StoredConversation): Promise<void> {
    if (conversation.events.length === 0) return;
    conversation.updatedAt = this.now();
    await mkdir(this.directory, { recursive: true });
    const target = this.file(conversation.id);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(conversation), 'utf8');
    await rename(temporary, target);
    const summary: ConversationSummary = { id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt };
    const index = [summary, ...this.list().filter((entry) => entry.id !== conversation.id)];
    for (const dropped of index.splice(maxConversations)) await rm(this.file(dropped.id), { force: true });
    await this.state.update(indexKey, index);
  }

  async delete(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
    await this.state.update(
      indexKey,
      this.list().filter((entry) => entry.id !== id),
    );
    if (this.currentId() === id) await this.setCurrent(undefined);
  }
}

/** A history title from the first prompt. */
export function titleFrom(prompt: string): string {
  const line = prompt.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
