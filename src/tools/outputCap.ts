// Keeps the head and the tail of a long output, dropping the middle, with
// constant memory however much a command prints.

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
      // One fewer rather than half of a surrogate pair (an emoji cut in two).
      if (isHighSurrogate(text.charCodeAt(room - 1))) room -= 1;
      this.head += text.slice(0, room);
      text = text.slice(room);
      this.headFull = true;
    }
    if (!text) return;
    this.tail += text;
    const tailLimit = this.limit - half;
    if (this.tail.length > tailLimit) {
      let cut = this.tail.length - tailLimit;
      if (isLowSurrogate(this.tail.charCodeAt(cut))) cut += 1;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  toString(): string {
    return this.dropped > 0 ? `${this.head}\n[... ${this.dropped} characters of output not shown ...]\n${this.tail}` : this.head + this.tail;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
