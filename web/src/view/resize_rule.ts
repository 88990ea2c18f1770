// Dynamic resolution, the page's arithmetic: which desktop size a stage asks
// for, and when a wanted size goes to the server. Pure (no DOM, no timers:
// the caller passes the clock), so web/test/resize_logic.test.mjs runs it in
// node.
//
// The rule: f = min(devicePixelRatio, scale) desktop pixels per CSS pixel.
// Up to the server's --resize-scale that is one desktop pixel per device
// pixel, a picture shown 1:1 with no resampling; on a screen of a higher
// pixel ratio the scale caps it, as a 2x screen would otherwise ask for four
// times the pixels to encode.

export interface Size {
  width: number;
  height: number;
}

export interface SizeLimits {
  minWidth: number;
  minHeight: number;
  maxWidth: number;
  maxHeight: number;
}

// A change that comes after the stage was still this long (a window
// maximised, a phone turned, fullscreen) is asked for at once; the changes
// that follow it within this time (a window's edge being dragged) are asked
// for once the stage has been still this long, so a drag costs two resizes,
// not one per step.
export const RESIZE_DEBOUNCE_MS = 300;
// The protocol's range for a requested width or height.
export const MAX_REQUEST_PX = 16384;

// Desktop pixels per CSS pixel.
export function desktopPixelsPerCss(dpr: number, scale: number): number {
  const d = dpr > 0 && Number.isFinite(dpr) ? dpr : 1;
  const s = scale > 0 && Number.isFinite(scale) ? scale : 1;
  return Math.min(d, s);
}

// What the server makes of a request: width down to a multiple of 8, height
// down to even, within the limits (themselves brought onto that grid).
export function roundDesktopSize(width: number, height: number, limits: SizeLimits): Size {
  const minW = Math.max(8, ceilTo(limits.minWidth, 8));
  const minH = Math.max(2, ceilTo(limits.minHeight, 2));
  const maxW = Math.max(minW, floorTo(Math.min(limits.maxWidth, MAX_REQUEST_PX), 8));
  const maxH = Math.max(minH, floorTo(Math.min(limits.maxHeight, MAX_REQUEST_PX), 2));
  return {
    width: clamp(floorTo(width, 8), minW, maxW),
    height: clamp(floorTo(height, 2), minH, maxH),
  };
}

// The desktop size a stage of `stage` device pixels asks for at pixel ratio
// `dpr`; null for a stage with no area (hidden, not laid out yet).
export function wantedDesktopSize(stage: Size, dpr: number, scale: number, limits: SizeLimits): Size | null {
  if (!(stage.width > 0 && stage.height > 0)) return null;
  const d = dpr > 0 && Number.isFinite(dpr) ? dpr : 1;
  const k = desktopPixelsPerCss(d, scale) / d;
  // k == 1 (f == dpr): exactly the device pixels, no float in between.
  const w = k === 1 ? stage.width : Math.floor(stage.width * k + 1e-6);
  const h = k === 1 ? stage.height : Math.floor(stage.height * k + 1e-6);
  return roundDesktopSize(w, h, limits);
}

export function sameSize(a: Size | null, b: Size | null): boolean {
  return a === b || (a !== null && b !== null && a.width === b.width && a.height === b.height);
}

export type ResizeDecision = { send: Size } | { waitMs: number } | null;

// When to send: at once for the first change after a still stage, else once
// the stage has been still for the debounce time, and only what differs from
// the last size sent. forgetSent() makes the next decision send again (a new
// connection; this page just became the holder).
export class ResizeDebounce {
  private changedAt = Number.NEGATIVE_INFINITY;
  private leading = true;  // the latest change came after a still stage and is not sent yet
  private lastSent: Size | null = null;

  constructor(private readonly delayMs = RESIZE_DEBOUNCE_MS) {}

  // The stage's size (or pixel ratio) changed at `now` (ms).
  stageChanged(now: number): void {
    this.leading = now - this.changedAt >= this.delayMs;
    this.changedAt = now;
  }

  forgetSent(): void {
    this.lastSent = null;
  }

  // With `wanted` the size the stage asks for now (null: nothing to ask):
  // send it, wait `waitMs` and decide again, or nothing to do.
  decide(now: number, wanted: Size | null): ResizeDecision {
    if (!wanted || sameSize(wanted, this.lastSent)) return null;
    const left = this.changedAt + this.delayMs - now;
    if (left > 0 && !this.leading) return { waitMs: left };
    return { send: wanted };
  }

  // `size` went out.
  sent(size: Size): void {
    this.lastSent = { width: size.width, height: size.height };
    this.leading = false;
  }

  get last(): Size | null {
    return this.lastSent;
  }
}

function floorTo(v: number, step: number): number {
  return Math.floor(v / step) * step;
}

function ceilTo(v: number, step: number): number {
  return Math.ceil(v / step) * step;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
