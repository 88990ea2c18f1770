// Draws decoded frames onto a canvas (the page's own, or the OffscreenCanvas
// the render worker got from it) at the frame's own size: the backing store
// follows the stream, the page's layout scales it. A 2D context without
// alpha, asked for low latency (desynchronized) where the browser offers it.
// (An ImageBitmap per frame into a bitmaprenderer context measured costlier
// in headless Chromium: a new bitmap is allocated for every frame.)
//
// Owned by the thread that draws; the caller closes the frames.

import type { FrameSink } from "./video_renderer";

export type DrawTarget = HTMLCanvasElement | OffscreenCanvas;

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export class CanvasDrawer implements FrameSink {
  private readonly ctx: Context2D;
  private width = 0;
  private height = 0;

  constructor(private readonly canvas: DrawTarget) {
    const ctx = canvas.getContext("2d", { alpha: false, desynchronized: true }) as Context2D | null;
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
  }

  draw(frame: VideoFrame, done: () => void): void {
    const w = frame.displayWidth;
    const h = frame.displayHeight;
    if (w !== this.width || h !== this.height) {
      this.width = w;
      this.height = h;
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.ctx.drawImage(frame, 0, 0, w, h);
    done();
  }
}
