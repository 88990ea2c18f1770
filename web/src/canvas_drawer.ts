// Draws decoded frames onto a canvas (the page's own, or the OffscreenCanvas
// a worker got from it) at the frame's own size: the backing store follows
// the stream, the page's layout scales it. A 2D context without alpha, asked
// for low latency (desynchronized) where the browser offers it.
//
// Owned by the thread that draws; the caller closes the frames.

export type DrawTarget = HTMLCanvasElement | OffscreenCanvas;

export class CanvasDrawer {
  private readonly ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  private width = 0;
  private height = 0;

  constructor(private readonly canvas: DrawTarget) {
    const ctx = canvas.getContext("2d", { alpha: false, desynchronized: true }) as
      | CanvasRenderingContext2D
      | OffscreenCanvasRenderingContext2D
      | null;
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
  }

  // Returns true when the picture's size changed with this frame.
  draw(frame: VideoFrame): boolean {
    const w = frame.displayWidth;
    const h = frame.displayHeight;
    const resized = w !== this.width || h !== this.height;
    if (resized) {
      this.width = w;
      this.height = h;
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.ctx.drawImage(frame, 0, 0, w, h);
    return resized;
  }
}
