// Streams a model's text at once, except what may be a JSON tool-call
// envelope: from the first `{` or code fence on, text is held back until the
// turn ends and the envelope can be parsed. Users then see prose live and
// never a half-written JSON object.

export class TextGate {
  private held = '';
  private holding = false;

  constructor(private readonly release: (text: string) => void) {}

  write(delta: string): void {
    if (this.holding) {
      this.held += delta;
      return;
    }
    // Runs per streamed token: two index lookups, no arrays.
    const brace = delta.indexOf('{');
    const fence = delta.indexOf('`');
    const cut = brace < 0 ? fence : fence < 0 ? brace : Math.min(brace, fence);
    if (cut < 0) {
      this.release(delta);
      return;
    }
    if (cut > 0) this.release(delta.slice(0, cut));
    this.holding = true;
    this.held = delta.slice(cut);
  }

  /** What was held back; the caller decides whether to show it. */
  takeHeld(): string {
    const held = this.held;
    this.held = '';
    this.holding = false;
    return held;
  }
}
