// The picture's own zoom in the page (pinch), 1x to MAX_ZOOM: a scale and
// an offset applied on top of the fitted box as a CSS transform, so the
// desktop is never resized for it and everything that maps page points to
// stream pixels through the picture's client rectangle (pointer, touch,
// cursor) sees the zoom without knowing of it. Pure state and arithmetic;
// view.ts applies it to the element.
//
// Coordinates are CSS pixels relative to the stage.

export const MAX_ZOOM = 5;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ZoomPoint {
  x: number;
  y: number;
}

export class PictureZoom {
  private s = 1;
  // Offset of the zoomed picture's top-left corner from the fitted box's.
  private tx = 0;
  private ty = 0;
  private box: Box = { left: 0, top: 0, width: 0, height: 0 };
  private stage = { width: 0, height: 0 };

  // `changed` runs after every change the caller did not make through place().
  constructor(private readonly changed: () => void = () => undefined) {}

  get scale(): number {
    return this.s;
  }

  get zoomed(): boolean {
    return this.s !== 1;
  }

  // The fitted box and the stage it sits in changed (the view's layout): the
  // zoom keeps its scale and stays inside the new bounds.
  place(box: Box, stage: { width: number; height: number }): void {
    this.box = { ...box };
    this.stage = { ...stage };
    this.clampOffset();
  }

  // One pinch step: the picture point under `from` goes under `to`, the
  // scale multiplied by `ratio` (kept within 1..MAX_ZOOM).
  pinch(from: ZoomPoint, to: ZoomPoint, ratio: number): void {
    if (!(ratio > 0) || this.box.width <= 0 || this.box.height <= 0) return;
    const s = Math.min(MAX_ZOOM, Math.max(1, this.s * ratio));
    // The point under `from`, in the fitted box's unzoomed CSS pixels.
    const qx = (from.x - this.box.left - this.tx) / this.s;
    const qy = (from.y - this.box.top - this.ty) / this.s;
    this.s = s;
    this.tx = to.x - this.box.left - qx * s;
    this.ty = to.y - this.box.top - qy * s;
    this.clampOffset();
    this.changed();
  }

  // Moves the zoomed picture by (dx, dy) CSS px, as far as it may go;
  // returns the part of the move it could not make.
  pan(dx: number, dy: number): ZoomPoint {
    const x0 = this.tx;
    const y0 = this.ty;
    this.tx += dx;
    this.ty += dy;
    this.clampOffset();
    if (this.tx !== x0 || this.ty !== y0) this.changed();
    return { x: dx - (this.tx - x0), y: dy - (this.ty - y0) };
  }

  // Pans the least that brings stage point `p` (on the zoomed picture) at
  // least `margin` px inside the stage; for a pointer moved off screen.
  reveal(p: ZoomPoint, margin: number): void {
    if (!this.zoomed) return;
    const dx = shift(p.x, margin, this.stage.width - margin);
    const dy = shift(p.y, margin, this.stage.height - margin);
    if (dx !== 0 || dy !== 0) void this.pan(dx, dy);
  }

  reset(): void {
    if (this.s === 1 && this.tx === 0 && this.ty === 0) return;
    this.s = 1;
    this.tx = 0;
    this.ty = 0;
    this.changed();
  }

  // The zoomed picture's box in the stage.
  shownBox(): Box {
    return {
      left: this.box.left + this.tx,
      top: this.box.top + this.ty,
      width: this.box.width * this.s,
      height: this.box.height * this.s,
    };
  }

  // For the element, with transform-origin at its top-left corner.
  css(): string {
    if (this.s === 1 && this.tx === 0 && this.ty === 0) return "";
    return `translate(${round3(this.tx)}px, ${round3(this.ty)}px) scale(${round3(this.s)})`;
  }

  // Unzoomed, the picture sits in its fitted place. Zoomed, it may move
  // anywhere in the stage while smaller than the stage in an axis, and
  // must cover the stage in an axis where it is larger: no panning off into
  // the void.
  private clampOffset(): void {
    if (this.s === 1) {
      this.tx = 0;
      this.ty = 0;
      return;
    }
    this.tx = clampAxis(this.box.left, this.box.width * this.s, this.stage.width, this.tx);
    this.ty = clampAxis(this.box.top, this.box.height * this.s, this.stage.height, this.ty);
  }
}

function clampAxis(start: number, size: number, stage: number, offset: number): number {
  const lo = Math.min(0, stage - size);
  const hi = Math.max(0, stage - size);
  return Math.min(hi, Math.max(lo, start + offset)) - start;
}

// How far to move `v` to bring it into [lo, hi].
function shift(v: number, lo: number, hi: number): number {
  if (hi < lo) return 0;
  if (v < lo) return lo - v;
  if (v > hi) return hi - v;
  return 0;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

// One axis of a scrolling stage moved by a finger's (dx) CSS px, content
// following the finger: the new scroll position within 0..max, and the
// part of dx it could not take.
export function scrollStep(pos: number, max: number, dx: number): { pos: number; rest: number } {
  const to = Math.min(Math.max(0, max), Math.max(0, pos - dx));
  return { pos: to, rest: dx - (pos - to) };
}
