// Draws decoded frames onto a canvas (the page's own, or the OffscreenCanvas
// the render worker got from it) at the frame's own size: the backing store
// follows the stream, the page's layout scales it. A striped stream's band
// is drawn at its rows of a backing store of the whole picture's size
// (stripes.ts), over the other bands, which stay as they were drawn. A 2D
// context without alpha, asked for low latency (desynchronized) where the
// browser offers it.
// (An ImageBitmap per frame into a bitmaprenderer context measured costlier
// in headless Chromium: a new bitmap is allocated for every frame.)
//
// Owned by the thread that draws; the caller closes the frames.

import { bandRect, type Placement } from "./stripes";
import type { FrameSink } from "./video_renderer";

export type DrawTarget = HTMLCanvasElement | OffscreenCanvas;

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export class CanvasDrawer implements FrameSink {
  private readonly ctx: Context2D;
  private width = 0;
  private height = 0;

  // `desynchronized`: drawn straight to the screen where the browser can
  // (a canvas that is read back instead, render_worker.ts's, asks not to).
  constructor(
    readonly canvas: DrawTarget,
    desynchronized = true,
  ) {
    const ctx = canvas.getContext("2d", { alpha: false, desynchronized }) as Context2D | null;
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
  }

  draw(frame: VideoFrame, place: Placement, done: () => void): void {
    const r = bandRect(place, frame.displayWidth, frame.displayHeight);
    // A new size clears the canvas: the bands of a picture of a new size
    // all come again (every stream restarts with it).
    if (r.canvasWidth !== this.width || r.canvasHeight !== this.height) {
      this.width = r.canvasWidth;
      this.height = r.canvasHeight;
      this.canvas.width = r.canvasWidth;
      this.canvas.height = r.canvasHeight;
    }
    this.ctx.drawImage(frame, r.x, r.y, r.width, r.height);
    done();
  }
}
