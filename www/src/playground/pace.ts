// Play's pace: each Step starts 1/N s after the previous Step *started*, so "10/s" shows ten tokens
// a second when the machine can (waiting 1/N after each Step finished showed about 8 on a fast
// machine and 5 on a slow PC). The next Step also waits for a frame, so a Step slower than 1/N
// still shows its token before the next one runs; one Step is scheduled at a time.
export class PlayPace {
  private timer: number | undefined;
  private frame: number | undefined;

  /** Run `next` 1000/`perSecond` ms after `startedAt` (performance.now()), and after a frame has been drawn. */
  after(startedAt: number, perSecond: number, next: () => void): void {
    this.cancel();
    const wait = (): void => {
      this.frame = undefined;
      this.timer = window.setTimeout(next, Math.max(0, startedAt + 1000 / perSecond - performance.now()));
    };
    // a hidden tab draws no frames (rAF would stop Play there), and the controller runs without a
    // page too (tests/node/playground.test.mjs): the clock alone
    if (typeof document === "undefined" || document.hidden || typeof window.requestAnimationFrame !== "function") wait();
    else this.frame = window.requestAnimationFrame(wait);
  }

  /** Run `next` in `ms` (an async source's logits still on their way). */
  poll(ms: number, next: () => void): void {
    this.cancel();
    this.timer = window.setTimeout(next, ms);
  }

  cancel(): void {
    window.clearTimeout(this.timer);
    if (this.frame !== undefined) window.cancelAnimationFrame?.(this.frame);
    this.timer = undefined;
    this.frame = undefined;
  }
}
