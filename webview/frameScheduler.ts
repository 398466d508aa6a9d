// Coalesces work to at most one run per animation frame: many deltas in one
// frame cost one render.
export class FrameScheduler {
  private pending = false;

  constructor(
    private readonly work: () => void,
    private readonly requestFrame: (callback: () => void) => unknown = (callback) => requestAnimationFrame(callback),
  ) {}

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    this.requestFrame(() => {
      this.pending = false;
      this.work();
    });
  }
}
