// Frames as the compositor presented them, where the page can know: a video
// element's requestVideoFrameCallback reports presentedFrames, the
// compositor's own count, at each frame it shows. perSecond() is the count
// over the last second, total() since watching began. A canvas has no
// such count: there it is null.
//
// Main thread. Bounded: one stamp per presented frame of the last second.

const WINDOW_MS = 1000;

interface FrameCallbackVideo {
  requestVideoFrameCallback(cb: (now: number, meta: { presentedFrames: number }) => void): number;
  cancelVideoFrameCallback(handle: number): void;
}

export class PresentedFrames {
  // [time, frames presented since the last callback].
  private stamps: [number, number][] = [];
  private last = -1;
  private sum = 0;
  private handle = 0;
  private stopped = false;

  private constructor(private readonly video: FrameCallbackVideo) {
    this.ask();
  }

  // Null where the browser has no requestVideoFrameCallback.
  static watch(video: HTMLVideoElement): PresentedFrames | null {
    const v = video as unknown as Partial<FrameCallbackVideo>;
    return typeof v.requestVideoFrameCallback === "function" ? new PresentedFrames(v as FrameCallbackVideo) : null;
  }

  perSecond(now: number): number {
    this.prune(now);
    let n = 0;
    for (const [, count] of this.stamps) n += count;
    return n;
  }

  total(): number {
    return this.sum;
  }

  stop(): void {
    this.stopped = true;
    this.video.cancelVideoFrameCallback(this.handle);
  }

  private ask(): void {
    this.handle = this.video.requestVideoFrameCallback((now, meta) => {
      if (this.stopped) return;
      // A first callback, or a count that went back (a new source), says
      // nothing about how many came before it.
      const added = this.last < 0 || meta.presentedFrames < this.last ? 1 : meta.presentedFrames - this.last;
      this.last = meta.presentedFrames;
      this.sum += added;
      this.prune(now);
      this.stamps.push([now, added]);
      this.ask();
    });
  }

  private prune(now: number): void {
    let n = 0;
    while (n < this.stamps.length && this.stamps[n]![0] < now - WINDOW_MS) n++;
    if (n > 0) this.stamps.splice(0, n);
  }
}
