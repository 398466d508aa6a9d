// Keeps the head and the tail of a long output, dropping the middle, with
// constant memory however much a command prints, never cutting an emoji in two.

import { headEnd, tailStart } from '../common/surrogatePairs';

export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private headFull = false;
  constructor(private readonly limit: number) {}

  append(text: string): void {
    const half = Math.floor(this.limit / 2);
    if (!this.headFull) {
      let room = half - this.head.length;
      if (text.length < room) {
        this.head += text;
        return;
      }
      room = headEnd(text, room);
      this.head += text.slice(0, room);
      text = text.slice(room);
      this.headFull = true;
    }
    if (!text) return;
    this.tail += text;
    const tailLimit = this.limit - half;
    if (this.tail.length > tailLimit) {
      const cut = tailStart(this.tail, this.tail.length - tailLimit);
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  toString(): string {
    return this.dropped > 0 ? `${this.head}\n[... ${this.dropped} characters of output not shown ...]\n${this.tail}` : this.head + this.tail;
  }
}
