// Keeps the head and the tail of a long output, dropping the middle, with
// constant memory however much a command prints.

export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly limit: number) {}

  append(text: string): void {
    const half = Math.floor(this.limit / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (!text) return;
    this.tail += text;
    const tailLimit = this.limit - half;
    if (this.tail.length > tailLimit) {
      this.dropped += this.tail.length - tailLimit;
      this.tail = this.tail.slice(this.tail.length - tailLimit);
    }
  }

  toString(): string {
    return this.dropped > 0 ? `${this.head}\n[... ${this.dropped} characters of output not shown ...]\n${this.tail}` : this.head + this.tail;
  }
}
