// The canvas that shows the stream: keeps its on-screen box at the fit for
// the current window. Whoever draws (the render worker on the transferred
// canvas, or the page itself) keeps the backing store at the stream's own
// size and says so through setStreamSize. With dynamic resolution the
// desktop is shown at its own size over the CSS pixel factor whenever it
// fits (fitDesktop), scaled to fit otherwise. The viewer's scaling mode
// "1:1" (the panel's) shows every stream pixel on one device pixel instead,
// and the stage scrolls where the picture is larger than the window.
// The page's own pinch zoom (picture_zoom.ts) is applied on top as a
// transform.
//
// Main thread.

import type { ScreenElement } from "./screen_element";
import { fitDesktop, fitNative, fitStream, type Fit } from "./fit";
import { desktopPixelsPerCss, type Size } from "./resize_rule";
import { PictureZoom, scrollStep } from "./picture_zoom";

// The viewer's choice: scaled to fit the window, or 1:1.
export type ScalingMode = "fit" | "1:1";

// How the picture is shown: "desktop" at desktop size / f, "fit", or
// "native" (1:1, the viewer's choice).
export interface ViewLayout {
  mode: "desktop" | "fit" | "native";
  scale: number; // device pixels per stream pixel
  stream: Size;
  stage: Size; // device pixels
  dpr: number;
}

export type StageListener = (stage: Size, dpr: number) => void;

export class View {
  private streamW = 0;
  private streamH = 0;
  // The window's size in device pixels, as last measured.
  private viewW = 0;
  private viewH = 0;
  // Whether the ResizeObserver reports device pixels itself.
  private exact = false;
  // --resize-scale while the desktop follows the window, else null.
  private resizeScale: number | null = null;
  private mode: ViewLayout["mode"] = "fit";
  private fitScale = 1;
  private scaling: ScalingMode = "fit";
  private readonly stageListeners: StageListener[] = [];
  private readonly layoutListeners: (() => void)[] = [];
  // Pinch zoom of the picture in the page; its changes apply at once.
  readonly zoom = new PictureZoom(() => this.applyZoom());

  constructor(
    private readonly stage: HTMLElement,
    private readonly canvas: ScreenElement,
  ) {
    this.measure();
    this.watchSize();
    // A scroll of the stage (1:1 mode) moves the picture in the window.
    stage.addEventListener("scroll", () => this.layoutListeners.forEach((fn) => fn()), { passive: true });
    if (canvas instanceof HTMLVideoElement) {
      canvas.addEventListener("resize", () => {
        if (!canvas.hidden && canvas.videoWidth > 0) this.shown(canvas.videoWidth, canvas.videoHeight);
      });
    }
  }

  // A frame of this size was drawn: place it, and show the canvas. A video
  // element presents a frame a moment after it is handed over, so its box
  // follows the size it presents (its "resize" event), never a frame it
  // does not show yet.
  shown(w: number, h: number): void {
    const el = this.canvas;
    if (el instanceof HTMLVideoElement && el.videoWidth > 0) {
      w = el.videoWidth;
      h = el.videoHeight;
    }
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

  // Dynamic resolution on (the server's --resize-scale) or off (null).
  setResizeScale(scale: number | null): void {
    if (scale === this.resizeScale) return;
    this.resizeScale = scale;
    this.layout();
  }

  setScaling(mode: ScalingMode): void {
    if (mode === this.scaling) return;
    this.scaling = mode;
    this.stage.classList.toggle("native", mode === "1:1");
    this.layout();
  }

  get scalingMode(): ScalingMode {
    return this.scaling;
  }

  // `fn` hears the stage's size in device pixels now and at every change
  // (of its size or of the pixel ratio).
  watchStage(fn: StageListener): void {
    this.stageListeners.push(fn);
    fn(this.stageSize(), this.dpr());
  }

  // `fn` runs after every layout (the picture's box may have moved or
  // changed scale).
  onLayout(fn: () => void): void {
    this.layoutListeners.push(fn);
  }

  layoutState(): ViewLayout {
    return { mode: this.mode, scale: this.fitScale, stream: { width: this.streamW, height: this.streamH }, stage: this.stageSize(), dpr: this.dpr() };
  }

  // Where the stage's content (the zoom's coordinates) has its origin, in
  // client coordinates: its top-left corner, less what it is scrolled by
  // (1:1 mode).
  stageOrigin(): { x: number; y: number } {
    const r = this.stage.getBoundingClientRect();
    return { x: r.left + this.stage.clientLeft - this.stage.scrollLeft, y: r.top + this.stage.clientTop - this.stage.scrollTop };
  }

  // Scrolls the stage (1:1 mode, where the picture is larger than the
  // window) by a finger's move of (dx, dy) CSS px, the picture following the
  // finger, as far as it goes; returns the part it could not take (all of
  // it where the stage does not scroll).
  scrollStage(dx: number, dy: number): { x: number; y: number } {
    const st = this.stage;
    if (this.scaling !== "1:1") return { x: dx, y: dy };
    const x = scrollStep(st.scrollLeft, st.scrollWidth - st.clientWidth, dx);
    const y = scrollStep(st.scrollTop, st.scrollHeight - st.clientHeight, dy);
    if (x.pos !== st.scrollLeft || y.pos !== st.scrollTop) st.scrollTo(x.pos, y.pos);
    return { x: x.rest, y: y.rest };
  }

  private stageSize(): Size {
    return { width: this.viewW, height: this.viewH };
  }

  private dpr(): number {
    return window.devicePixelRatio || 1;
  }

  private stageChanged(): void {
    const stage = this.stageSize();
    const dpr = this.dpr();
    for (const fn of this.stageListeners) fn(stage, dpr);
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
      this.stageChanged();
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
        this.stageChanged();
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
    const dpr = this.dpr();
    let f: Fit | null = null;
    if (this.scaling === "1:1") {
      f = fitNative(this.streamW, this.streamH, this.viewW, this.viewH, dpr);
      this.mode = "native";
    } else {
      if (this.resizeScale !== null) {
        f = fitDesktop(this.streamW, this.streamH, this.viewW, this.viewH, dpr, desktopPixelsPerCss(dpr, this.resizeScale));
      }
      this.mode = f ? "desktop" : "fit";
      f ??= fitStream(this.streamW, this.streamH, this.viewW, this.viewH, dpr);
    }
    this.fitScale = f.scale;
    const s = this.canvas.style;
    s.left = `${f.left}px`;
    s.top = `${f.top}px`;
    s.width = `${f.width}px`;
    s.height = `${f.height}px`;
    s.imageRendering = f.pixelated ? "pixelated" : "auto";
    this.zoom.place({ left: f.left, top: f.top, width: f.width, height: f.height }, { width: this.viewW / dpr, height: this.viewH / dpr });
    this.applyZoom();
  }

  private applyZoom(): void {
    const s = this.canvas.style;
    s.transformOrigin = "0 0";
    s.transform = this.zoom.css();
    for (const fn of this.layoutListeners) fn();
  }
}
