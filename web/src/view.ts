// The canvas that shows the stream: keeps its on-screen box at the fit for
// the current window. Whoever draws (the render worker on the transferred
// canvas, or the page itself) keeps the backing store at the stream's own
// size and says so through setStreamSize.
//
// Main thread.

import type { ScreenElement } from "./screen_element";
import { fitStream } from "./fit";

export class View {
  private streamW = 0;
  private streamH = 0;
  // The window's size in device pixels, as last measured.
  private viewW = 0;
  private viewH = 0;
  // Whether the ResizeObserver reports device pixels itself.
  private exact = false;

  constructor(
    private readonly stage: HTMLElement,
    private readonly canvas: ScreenElement,
  ) {
    this.measure();
    this.watchSize();
  }

  // A frame of this size was drawn: place it, and show the canvas.
  shown(w: number, h: number): void {
    if (w !== this.streamW || h !== this.streamH) {
      this.streamW = w;
      this.streamH = h;
      this.layout();
    }
    if (this.canvas.hidden) this.canvas.hidden = false;
  }

  // Hides the last picture, so a stale one is not mistaken for a live one.
  clear(): void {
    this.canvas.hidden = true;
  }

  private watchSize(): void {
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const dev = e.devicePixelContentBoxSize?.[0];
        const dpr = window.devicePixelRatio || 1;
        // Chrome's device emulation reports CSS pixels here; only trust
        // figures that agree with the pixel ratio.
        if (dev && Math.abs(dev.inlineSize - e.contentRect.width * dpr) < 2) {
          this.exact = true;
          this.viewW = dev.inlineSize;
          this.viewH = dev.blockSize;
        } else {
          this.exact = false;
          this.measure();
        }
      }
      this.layout();
    });
    try {
      // Exact device pixels where supported; rounding CSS sizes can be off by one.
      ro.observe(this.stage, { box: "device-pixel-content-box" });
    } catch {
      ro.observe(this.stage);
    }
    this.watchPixelRatio();
  }

  // Moving to a screen with another pixel ratio, or zooming, need not resize
  // the stage in CSS pixels, yet changes the fit.
  private watchPixelRatio(): void {
    const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    mq.addEventListener(
      "change",
      () => {
        if (!this.exact) this.measure();
        this.layout();
        this.watchPixelRatio();
      },
      { once: true },
    );
  }

  private measure(): void {
    const r = this.stage.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.viewW = Math.round(r.width * dpr);
    this.viewH = Math.round(r.height * dpr);
  }

  private layout(): void {
    const f = fitStream(this.streamW, this.streamH, this.viewW, this.viewH, window.devicePixelRatio || 1);
    const s = this.canvas.style;
    s.left = `${f.left}px`;
    s.top = `${f.top}px`;
    s.width = `${f.width}px`;
    s.height = `${f.height}px`;
    s.imageRendering = f.pixelated ? "pixelated" : "auto";
  }
}
