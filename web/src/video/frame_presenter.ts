// Shows decoded frames at the display's pace: keeps only the newest frame
// not yet drawn (closing the one it replaces), draws it at the next
// animation frame, then, once the drawer is done with it, hands it to
// `after` (which closes it, at once or once it is done reading it). A
// decoder that outputs two frames within one display refresh costs one
// draw, not two.
//
// Frames come in slots: a striped picture's bands are independent streams
// (stripes.ts), each drawn at its own rows, so a band replaces only a
// waiting band of its own stripe, and an animation frame draws every
// stripe's newest, in stripe order. An unstriped stream uses slot 0 alone.
//
// Owned by one thread (the page's or a worker's); every frame given to it is
// its to close.

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

export class FramePresenter<T> {
  // The newest frame not yet drawn of each slot.
  private pending: (Waiting<T> | undefined)[] = [];
  private scheduled = false;
  // Bumped by reset(), so a draw scheduled before it does nothing.
  private generation = 0;

  constructor(
    private readonly hooks: PresenterHooks<T>,
    private readonly schedule: Schedule | null,
  ) {}

  offer(frame: VideoFrame, info: T, slot = 0): void {
    const old = this.pending[slot];
    if (old) {
      this.pending[slot] = undefined;
      old.frame.close();
      this.hooks.skipped(old.info);
    }
    this.pending[slot] = { frame, info };
    if (!this.schedule) {
      this.drawPending();
      return;
    }
    this.scheduleDraw();
  }

  private scheduleDraw(): void {
    if (!this.schedule || this.scheduled) return;
    this.scheduled = true;
    const gen = this.generation;
    this.schedule(() => {
      if (gen !== this.generation) return;
      this.scheduled = false;
      this.drawPending();
    });
  }

  // Drops the frames waiting to be drawn, as for a new stream.
  reset(): void {
    this.generation++;
    this.scheduled = false;
    for (const p of this.pending) p?.frame.close();
    this.pending = [];
  }

  // Closes the frames waiting to be drawn, each reported skipped (they
  // belong to a picture a newer one replaces); a draw already scheduled
  // still draws what is offered before it.
  discard(): void {
    const all = this.pending;
    this.pending = [];
    for (const p of all) {
      if (!p) continue;
      p.frame.close();
      this.hooks.skipped(p.info);
    }
  }

  private drawPending(): void {
    const all = this.pending;
    this.pending = [];
    for (const p of all) if (p) this.drawOne(p);
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
