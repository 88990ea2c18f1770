// Draws decoded frames onto a canvas (the page's own, or the OffscreenCanvas
// a worker got from it) at the frame's own size: the backing store follows
// the stream, the page's layout scales it. Two ways, chosen by the page:
//  - "2d": drawImage into a 2D context without alpha, asked for low latency
//    (desynchronized) where the browser offers it;
//  - "bitmap": the frame becomes an ImageBitmap that the canvas takes over
//    (bitmaprenderer), with no canvas backing store of its own to copy.
//
// Owned by the thread that draws; the caller closes the frames.

import type { FrameSink } from "./video_renderer";

export type DrawTarget = HTMLCanvasElement | OffscreenCanvas;
export type DrawMode = "2d" | "bitmap";

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export class CanvasDrawer implements FrameSink {
  private readonly ctx: Context2D | ImageBitmapRenderingContext;
  private width = 0;
  private height = 0;
  // Bitmaps are made asynchronously: one at a time, the newest frame wins.
  private converting = false;

  constructor(
    private readonly canvas: DrawTarget,
    readonly mode: DrawMode,
  ) {
    const ctx =
      mode === "bitmap"
        ? (canvas.getContext("bitmaprenderer") as ImageBitmapRenderingContext | null)
        : (canvas.getContext("2d", { alpha: false, desynchronized: true }) as Context2D | null);
    if (!ctx) throw new Error(`no ${mode} canvas context`);
    this.ctx = ctx;
  }

  // Draws `frame` and calls `done` once the frame is no longer needed (at
  // once for "2d", after the bitmap is made for "bitmap"); returns false
  // when the frame was not drawn (a bitmap still being made), and `done` is
  // then not called.
  draw(frame: VideoFrame, done: () => void): boolean {
    const w = frame.displayWidth;
    const h = frame.displayHeight;
    if ("drawImage" in this.ctx) {
      this.resize(w, h);
      this.ctx.drawImage(frame, 0, 0, w, h);
      done();
      return true;
    }
    if (this.converting) return false;
    this.converting = true;
    const ctx = this.ctx;
    createImageBitmap(frame)
      .then((bmp) => {
        this.resize(w, h);
        ctx.transferFromImageBitmap(bmp);
      })
      .finally(() => {
        this.converting = false;
        done();
      })
      .catch(() => undefined);
    return true;
  }

  private resize(w: number, h: number): void {
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.canvas.width = w;
    this.canvas.height = h;
  }
}
