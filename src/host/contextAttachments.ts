// What the user attached to the next message: files, folders, the editor's
// selection, the problems, the open editors, MCP resources. Each shows as a
// context chip above the prompt box; sending reads every item (now, not when
// it was attached) and adds its block to the message, then the chips are
// used up. An item that cannot be read is named in the message instead of
// failing the send. No 'vscode' here: the items bring their own readers.
import { omittedCharacters } from '../tools/contextContent';
import type { ChatImage } from '../models/chatModel';

export interface ContextAttachment {
  /** The chip's `data-path`: a workspace-relative path, an MCP resource's URI, or `selection:<file>:<lines>`, `problems`, `open-editors`. */
  readonly path: string;
  /** The chip's text. */
  readonly label: string;
  /** The chip's tooltip. */
  readonly title: string;
  /** Tells apart two items with the same path (one URI on two MCP servers); defaults to the path. */
  readonly key?: string | undefined;
  /** Why the item cannot be attached (excluded by .gitignore, outside the workspace): the chip shows it; nothing is read. */
  readonly error?: string | undefined;
  /** How the message names the item when it cannot be read, e.g. "Attached file src/a.ts". */
  readonly name: string;
  /** The item's block for the message. */
  read(signal: AbortSignal): Promise<string>;
  /** A picture that goes with the message (a pasted image); its block describes it. */
  readonly image?: ChatImage | undefined;
}

/** What a sent message carries besides the typed text. */
export interface AttachedContext {
  /** The chips' labels, shown under the prompt in the conversation. */
  readonly labels: readonly string[];
  /** The items' blocks, joined; what the models read after the typed text. */
  readonly text: string;
  /** Pictures that go with the message to the models, for its run only (never stored). */
  readonly images?: readonly ChatImage[] | undefined;
}

export class ContextAttachments {
  private items: ContextAttachment[] = [];
  private readonly listeners = new Set<() => void>();

  list(): readonly ContextAttachment[] {
    return this.items;
  }

  /** Adds an item; one with the same key replaces the old one in its place (a newer selection of the same lines). */
  attach(item: ContextAttachment): void {
    const key = keyOf(item);
    const index = this.items.findIndex((each) => keyOf(each) === key);
    this.items = index < 0 ? [...this.items, item] : this.items.map((each, at) => (at === index ? item : each));
    this.changed();
  }

  detach(path: string): void {
    const before = this.items.length;
    this.items = this.items.filter((each) => each.path !== path);
    if (this.items.length !== before) this.changed();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Reads every attached item into one text; the items are used up. Undefined when nothing was attached. */
  take(signal: AbortSignal): Promise<AttachedContext | undefined> {
    return readAttachments(this.takeItems(), signal);
  }

  /** The items, unread, used up (a follow-up queued while a run goes takes them, to read when it is sent). */
  takeItems(): readonly ContextAttachment[] {
    const items = this.items;
    if (items.length === 0) return items;
    this.items = [];
    this.changed();
    return items;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Reads `items` into one text, each block marked; an item that cannot be read is named with why. Undefined for none. */
export async function readAttachments(items: readonly ContextAttachment[], signal: AbortSignal): Promise<AttachedContext | undefined> {
  if (items.length === 0) return undefined;
  const read = await Promise.all(
    items.map(async (item): Promise<{ block: string; label: string }> => {
      if (item.error !== undefined) return { block: `${item.name} was not attached: ${item.error}`, label: `${item.label} (not sent: ${shortReason(item.error)})` };
      try {
        const block = await item.read(signal);
        return { block, label: labelAfterRead(item.label, block) };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return { block: `${item.name} could not be read: ${why}`, label: `${item.label} (not sent: ${shortReason(why)})` };
      }
    }),
  );
  // The conversation shows what the models got: an item not read, or cut, says so under the prompt.
  const images = items.flatMap((item) => (item.error === undefined && item.image ? [item.image] : []));
  return { labels: read.map((each) => each.label), text: read.map((each) => each.block).join('\n\n'), ...(images.length > 0 && { images }) };
}

function keyOf(item: ContextAttachment): string {
  return item.key ?? item.path;
}

/** A chip's label as the conversation shows it once read: with how much was left out, when something was. */
function labelAfterRead(label: string, block: string): string {
  const omitted = omittedCharacters(block);
  return omitted > 0 ? `${label} (middle cut: ${omitted.toLocaleString('en-US')} characters left out)` : label;
}

/** A reason short enough for a label: its first line, without the closing period. */
function shortReason(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const short = line.length > 160 ? `${line.slice(0, 160)}…` : line;
  return short.replace(/\.$/u, '');
}
