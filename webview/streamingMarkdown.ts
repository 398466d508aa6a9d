// A streamed answer in the DOM: finished blocks are appended once and never
// touched again (so a text selection in them survives further streaming);
// of the live tail, only blocks whose HTML changed get new nodes.
// Blocks go into segments of a few dozen; a segment off screen skips layout
// and paint (content-visibility), so the layout each frame forces stays the
// same size however long the answer grows. Nodes never move between segments.
import { safeFragment, type CodeBlockActions } from './markdown';
import { MarkdownBlockSplitter, type BlockUpdate } from './markdownBlocks';

interface LiveBlock {
  readonly html: string;
  readonly nodes: readonly ChildNode[];
}

/** Top-level nodes per segment before the next one starts. */
const segmentSize = 40;

export class StreamingMarkdown {
  private readonly splitter = new MarkdownBlockSplitter();
  private live: LiveBlock[] = [];
  private segment: HTMLElement | undefined;

  constructor(
    private readonly target: HTMLElement,
    private readonly codeActions: CodeBlockActions,
  ) {}

  /** Shows `markdown` (the whole text; a continuation of what is shown only re-renders the tail). */
  update(markdown: string): void {
    this.apply(this.splitter.update(markdown));
  }

  /** Shows `delta` added at the end: the streaming path, whose cost does not grow with the answer. */
  append(delta: string): void {
    this.apply(this.splitter.append(delta));
  }

  private apply(update: BlockUpdate): void {
    if (update.reset) {
      this.target.replaceChildren();
      this.live = [];
      this.segment = undefined;
    }
    const blocks = [...update.finished, ...update.tail];
    // Blocks that kept their HTML keep their nodes; the first changed one and all after it are rebuilt.
    let kept = 0;
    while (kept < this.live.length && kept < blocks.length && this.live[kept]!.html === blocks[kept]) kept++;
    for (const block of this.live.slice(kept)) for (const node of block.nodes) node.remove();
    const all: LiveBlock[] = this.live.slice(0, kept);
    for (const html of blocks.slice(kept)) {
      const fragment = safeFragment(html, this.codeActions);
      const nodes = [...fragment.childNodes];
      this.openSegment().append(fragment);
      all.push({ html, nodes });
    }
    this.live = all.slice(all.length - update.tail.length);
  }

  private openSegment(): HTMLElement {
    if (!this.segment || this.segment.childNodes.length >= segmentSize) {
      this.segment = document.createElement('div');
      this.segment.className = 'markdown-segment';
      this.target.append(this.segment);
    }
    return this.segment;
  }
}
