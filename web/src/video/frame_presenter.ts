// Shows decoded frames at the display's pace: draws one frame per slot at
// each animation frame, the oldest waiting, then, once the drawer is done
// with it, hands it to `after` (which closes it, at once or once it is done
// reading it).
//
// Up to two frames wait per slot, so a decoder that outputs two frames
// within one display refresh (a burst after a late packet, 50 frames a
// second beating against 60 refreshes) shows both, one refresh apart,
// rather than dropping one. A third replaces the oldest, which is closed
// and reported skipped; and a slot that had a frame left waiting after a
// draw and is two deep at the next loses its oldest then, so a backlog
// costs at most one refresh of delay.
//
// The animation-frame clock keeps ticking for a while after the last frame
// (kIdleTicks): a browser stops its display's clock for a thread that asks
// for no frame and takes a refresh or more to start it again, in which a
// frame would wait. An idle stream stops it, so a still desktop costs
// nothing.
//
export interface PresenterHooks<T> {
  // Draws, and calls `done` once the frame is no longer needed for it.
  draw(frame: VideoFrame, info: T, done: () => void): void;
  // Called with every drawn frame; must close it (now or later).
  after(frame: VideoFrame, info: T): void;
  // A frame replaced by a newer one before it was drawn (already closed).
  skipped(info: T): void;
  // Drawing threw (the frame is closed); nothing escapes the callback.
  failed(e: unknown): void;
}

type Schedule = (cb: () => void) => void;

// The animation-frame clock of this thread, or null where it has none (a
// worker in a browser without requestAnimationFrame there).
export function animationFrameClock(scope: typeof globalThis): Schedule | null {
  const raf = (scope as { requestAnimationFrame?: (cb: FrameRequestCallback) => number }).requestAnimationFrame;
  return typeof raf === "function" ? (cb) => void raf.call(scope, () => cb()) : null;
}

interface Waiting<T> {
  frame: VideoFrame;
  info: T;
}

// Frames that may wait in a slot.
const kQueueDepth = 2;
// Animation frames asked for after the last frame, about half a second.
const kIdleTicks = 30;

export class FramePresenter<T> {
  // The frames not yet drawn of each slot, oldest first.
  private pending: Waiting<T>[][] = [];
  private scheduled = false;
  private idleTicks = 0;
  // A frame was left waiting after the last draw.
  private backlog = false;
  // Bumped by reset(), so a draw scheduled before it does nothing.
  private generation = 0;

  constructor(
    private readonly hooks: PresenterHooks<T>,
    private readonly schedule: Schedule | null,
  ) {}

  offer(frame: VideoFrame, info: T, slot = 0): void {
    if (!this.schedule) {
      this.drawOne({ frame, info });
      return;
    }
    const queue = (this.pending[slot] ??= []);
    if (queue.length >= kQueueDepth) this.skipOldest(queue);
    queue.push({ frame, info });
    this.idleTicks = 0;
    this.scheduleDraw();
  }

  private skipOldest(queue: Waiting<T>[]): void {
    const old = queue.shift();
    if (!old) return;
    old.frame.close();
    this.hooks.skipped(old.info);
  }

  private scheduleDraw(): void {
    if (!this.schedule || this.scheduled) return;
    this.scheduled = true;
    const gen = this.generation;
    this.schedule(() => {
      if (gen !== this.generation) return;
      this.scheduled = false;
      this.tick();
    });
  }

  // One animation frame: each slot's oldest frame drawn, and the clock
  // asked for the next while frames wait or came lately.
  private tick(): void {
    const behind = this.backlog;
    this.backlog = false;
    let drew = false;
    for (const queue of this.pending) {
      if (!queue || queue.length === 0) continue;
      if (behind && queue.length >= kQueueDepth) this.skipOldest(queue);
      const next = queue.shift();
      if (!next) continue;
      this.drawOne(next);
      drew = true;
      if (queue.length > 0) this.backlog = true;  // it waits a refresh
    }
    this.idleTicks = drew ? 0 : this.idleTicks + 1;
    if (this.waiting() || this.idleTicks < kIdleTicks) this.scheduleDraw();
  }

  private waiting(): boolean {
    return this.pending.some((q) => q && q.length > 0);
  }

  // Drops the frames waiting to be drawn, as for a new stream.
  reset(): void {
    this.generation++;
    this.scheduled = false;
    this.backlog = false;
    this.idleTicks = 0;
    for (const queue of this.pending) for (const p of queue ?? []) p.frame.close();
    this.pending = [];
  }

  // Closes the frames waiting to be drawn, each reported skipped (they
  // belong to a picture a newer one replaces); a draw already scheduled
  // still draws what is offered before it.
  discard(): void {
    const all = this.pending;
    this.pending = [];
    for (const queue of all) {
      for (const p of queue ?? []) {
        p.frame.close();
        this.hooks.skipped(p.info);
      }
    }
  }

  private drawOne(p: Waiting<T>): void {
    const gen = this.generation;
    try {
      this.hooks.draw(p.frame, p.info, () => {
        if (gen === this.generation) this.hooks.after(p.frame, p.info);
        else p.frame.close();
      });
    } catch (e) {
      p.frame.close();
      this.hooks.failed(e);
    }
  }
}
