// Touch gestures on the picture, recognised from the fingers' positions
// alone: no DOM, the clock injected, so node's tests feed it synthetic traces.
// Positions come in CSS pixels of the page; what it recognises goes out as
// move/button/scroll messages in stream pixels (through GestureMap, which
// the page backs with the picture's box, zoom included) and as pinch steps
// for the picture's own zoom.
//
//   tap                 left click: at the finger (direct) or where the
//                       pointer is (trackpad); in direct mode a touch soon
//                       after a tap and near it lands on the tap's pixel,
//                       so two taps make the desktop's double click
//   long press          right click (button 3): a finger held LONG_PRESS_MS
//                       moving less than TOUCH_SLOP_PX
//   two-finger tap      right click as well (trackpad habit)
//   two-finger drag     scroll, in stream pixels ("px"), content following
//                       the fingers; where the page can move the picture
//                       the way the fingers go (a zoomed picture, a stage
//                       that scrolls in 1:1 mode), a pan of it instead
//   pinch               zoom of the picture in the page (fingers spreading or
//                       closing first); the pinch's centre pans it as well
//   one-finger drag     trackpad: moves the pointer by the finger's delta
//                       times TRACKPAD_GAIN at the picture's scale;
//                       direct: the pointer follows the finger, left button held
//   tap, then drag      trackpad only ("tap and a half", as laptop
//                       touchpads): touch again within DOUBLE_TAP_MS of a
//                       tap and move: a drag with the left button held. So
//                       that this stays one press, a trackpad tap's button
//                       release waits DOUBLE_TAP_MS (a second tap in that
//                       time is a double click).
//
// Main thread (or node).

import type { ButtonMessage, MoveMessage, ScrollMessage } from "../protocol/messages";

export type TouchMode = "trackpad" | "direct";

export const LONG_PRESS_MS = 500;
export const DOUBLE_TAP_MS = 250;
// A two-finger touch that lifts within this long without moving is a tap.
export const TWO_FINGER_TAP_MS = 300;
// Movement (CSS px) under which a finger still taps or presses.
export const TOUCH_SLOP_PX = 10;
// Direct mode: a touch this soon (ms) and this close (CSS px) to the last
// tap lands on the tap's pixel.
export const DOUBLE_CLICK_MS = 400;
export const DOUBLE_CLICK_SLOP_PX = 24;
// Change of the fingers' distance (CSS px) that makes two fingers a pinch.
export const PINCH_SLOP_PX = 16;
// Trackpad pointer speed: stream pixels per CSS pixel of finger travel, over
// the picture's own scale (1 would keep the pointer under a finger that
// started on it).
export const TRACKPAD_GAIN = 1.5;

export interface Point {
  x: number;
  y: number;
}

// Injected time: now() in ms, later() runs `fn` once after `ms` unless the
// returned function cancels it first.
export interface GestureClock {
  now(): number;
  later(ms: number, fn: () => void): () => void;
}

export interface GestureMap {
  // The stream pixel under a page point (CSS px), clamped to the picture.
  toStream(p: Point): Point;
  // Stream pixels per CSS pixel in each axis, as the picture is shown now.
  scale(): Point;
  // The stream's size in pixels (0 while nothing is shown).
  size(): { width: number; height: number };
}

export type PointerMessage = MoveMessage | ButtonMessage | ScrollMessage;

export interface GestureSink {
  send(msg: PointerMessage): void;
  // One pinch step: the picture point under `from` goes under `to`
  // (page CSS px), scaled by `ratio`.
  zoom(from: Point, to: Point, ratio: number): void;
  // Pans the picture in the page (zoom, then the stage's scroll) by
  // (dx, dy) CSS px as far as it goes; returns the part it could not take
  // (all of it when the picture cannot move).
  pan(dx: number, dy: number): Point;
}

type Phase =
  | "idle"
  | "one" // one finger down, not yet a tap, a press or a drag
  | "drag" // one finger moving (pointer, or direct drag with the button held)
  | "two" // two fingers down, not yet a scroll or a pinch
  | "scroll"
  | "pan" // of the zoomed picture
  | "pinch"
  | "wait"; // the gesture is over or given up: nothing until every finger lifts

interface Finger {
  start: Point;
  at: Point;
}

export class TouchGestures {
  private mode: TouchMode;
  private phase: Phase = "idle";
  private readonly fingers = new Map<number, Finger>();
  private downAt = 0;
  // The trackpad's pointer, stream px (fractions kept so slow strokes add up).
  private pointer: Point | null = null;
  // Button 1 as the desktop has it from this recogniser, and where.
  private held: Point | null = null;
  // A trackpad tap's release, waiting for a possible second touch.
  private tapRelease: (() => void) | null = null;
  // The touch that came within DOUBLE_TAP_MS of a tap (its button still down).
  private again = false;
  // Direct mode's last tap: where the finger was, where it clicked, when.
  private lastTap: { page: Point; at: Point; time: number } | null = null;
  private cancelLongPress: (() => void) | null = null;
  // Two fingers: where their centre and distance were at the last step.
  private centre: Point = { x: 0, y: 0 };
  private spread = 0;
  private centre0: Point = { x: 0, y: 0 };
  private spread0 = 0;

  constructor(
    private readonly map: GestureMap,
    private readonly sink: GestureSink,
    private readonly clock: GestureClock,
    mode: TouchMode = "direct",
  ) {
    this.mode = mode;
  }

  get currentMode(): TouchMode {
    return this.mode;
  }

  // A switch mid-gesture ends the gesture (its button released).
  setMode(mode: TouchMode): void {
    if (mode === this.mode) return;
    this.reset();
    this.mode = mode;
  }

  // Where the trackpad's pointer is (stream px), or null before it is used.
  pointerPosition(): Point | null {
    return this.pointer ? this.rounded(this.pointer) : null;
  }

  down(id: number, x: number, y: number): void {
    const p = { x, y };
    this.fingers.set(id, { start: p, at: p });
    const n = this.fingers.size;
    if (n === 1) {
      this.firstFinger();
    } else if (n === 2 && (this.phase === "one" || this.phase === "drag")) {
      this.stopLongPress();
      this.releaseHeld();
      this.phase = "two";
      this.downAt = this.clock.now();
      this.startTwo();
    } else {
      this.endGesture();
    }
  }

  move(id: number, x: number, y: number): void {
    this.moveAll([{ id, x, y }]);
  }

  // Fingers that moved together (one touchmove event): the fingers' centre
  // and spread are judged once, after all of them.
  moveAll(points: readonly { id: number; x: number; y: number }[]): void {
    let one: { f: Finger; last: Point } | null = null;
    for (const p of points) {
      const f = this.fingers.get(p.id);
      if (!f) continue;
      one = { f, last: f.at };
      f.at = { x: p.x, y: p.y };
    }
    if (!one) return;
    const { f, last } = one;
    switch (this.phase) {
      case "one":
        if (dist(f.start, f.at) < TOUCH_SLOP_PX) return;
        this.stopLongPress();
        this.phase = "drag";
        this.startDrag(f);
        return;
      case "drag":
        this.dragBy(f, last);
        return;
      case "two":
      case "scroll":
      case "pan":
      case "pinch":
        this.twoMoved();
        return;
      default:
        return;
    }
  }

  up(id: number, x?: number, y?: number): void {
    const f = this.fingers.get(id);
    if (!f) return;
    if (x !== undefined && y !== undefined && this.phase !== "one") this.move(id, x, y);
    this.fingers.delete(id);
    const left = this.fingers.size;
    switch (this.phase) {
      case "one":
        this.stopLongPress();
        this.tapped(f);
        this.phase = "idle";
        return;
      case "drag":
        this.releaseHeld();
        this.phase = "idle";
        return;
      case "two":
        if (left === 0) {
          if (this.clock.now() - this.downAt <= TWO_FINGER_TAP_MS) this.click(3, this.clickPoint(this.centre0));
          this.phase = "idle";
        } else {
          // The first finger of a two-finger tap lifted: the tap is still on.
          if (this.clock.now() - this.downAt > TWO_FINGER_TAP_MS) this.phase = "wait";
        }
        return;
      default:
        this.phase = left === 0 ? "idle" : "wait";
    }
  }

  // The browser took the touch away (a system gesture): no click comes of it.
  cancel(id: number): void {
    if (!this.fingers.delete(id)) return;
    this.stopLongPress();
    this.releaseHeld();
    this.again = false;
    this.phase = this.fingers.size ? "wait" : "idle";
  }

  // Forgets every finger and releases what this recogniser holds.
  reset(): void {
    this.fingers.clear();
    this.stopLongPress();
    this.stopTapRelease();
    this.releaseHeld();
    this.again = false;
    this.lastTap = null;
    this.phase = "idle";
  }

  // -- one finger --

  private firstFinger(): void {
    this.downAt = this.clock.now();
    this.phase = "one";
    // The trackpad's pointer shows from the first touch on.
    if (this.mode === "trackpad") this.trackpadPointerExact();
    this.again = this.tapRelease !== null;
    if (this.again) {
      // The second touch of a possible tap-and-drag: the first tap's button
      // stays down until this touch says what it is.
      this.stopTapRelease();
      return;
    }
    this.cancelLongPress = this.clock.later(LONG_PRESS_MS, () => this.longPressed());
  }

  private longPressed(): void {
    this.cancelLongPress = null;
    if (this.phase !== "one") return;
    const f = this.onlyFinger();
    if (!f) return;
    this.click(3, this.clickPoint(f.start));
    this.phase = "wait";
  }

  private tapped(f: Finger): void {
    if (this.mode === "direct") {
      const at = this.nearLastTap(f.start);
      this.click(1, at);
      this.lastTap = { page: f.start, at, time: this.clock.now() };
      return;
    }
    if (this.again) {
      // Double tap: the first click ends, a second one follows at once;
      // a touch held longer only ends the first.
      this.again = false;
      this.releaseHeld();
      if (this.clock.now() - this.downAt < LONG_PRESS_MS) this.click(1, this.trackpadPointer());
      return;
    }
    const at = this.trackpadPointer();
    this.press(at);
    this.tapRelease = this.clock.later(DOUBLE_TAP_MS, () => {
      this.tapRelease = null;
      this.releaseHeld();
    });
  }

  private startDrag(f: Finger): void {
    if (this.mode === "direct") {
      const from = this.nearLastTap(f.start);
      this.sink.send({ type: "move", ...from });
      this.press(from);
      this.dragBy(f, f.start);
      return;
    }
    // Trackpad: the pointer moves by the whole stroke, slop included, so
    // it does not lag the finger; after a tap (again) the button is held.
    this.again = false;
    this.dragBy(f, f.start);
  }

  private dragBy(f: Finger, last: Point): void {
    if (this.mode === "direct") {
      const p = this.map.toStream(f.at);
      if (this.held) this.held = p;
      this.sink.send({ type: "move", ...p });
      return;
    }
    const s = this.map.scale();
    const ptr = this.trackpadPointerExact();
    const { width, height } = this.map.size();
    ptr.x = clamp(ptr.x + (f.at.x - last.x) * s.x * TRACKPAD_GAIN, 0, Math.max(0, width - 1));
    ptr.y = clamp(ptr.y + (f.at.y - last.y) * s.y * TRACKPAD_GAIN, 0, Math.max(0, height - 1));
    const p = this.rounded(ptr);
    if (this.held) this.held = p;
    this.sink.send({ type: "move", ...p });
  }

  // A finger never lands twice on the same pixel: a touch that comes soon
  // after a tap and close to it lands on the tap's pixel, so that the
  // desktop sees a double click (or a double-click drag), whose distance
  // limit is a few desktop pixels.
  private nearLastTap(p: Point): Point {
    const t = this.lastTap;
    if (t && this.downAt - t.time <= DOUBLE_CLICK_MS && dist(p, t.page) <= DOUBLE_CLICK_SLOP_PX) return t.at;
    return this.map.toStream(p);
  }

  // -- two fingers --

  private startTwo(): void {
    const pts = [...this.fingers.values()].map((f) => f.at);
    this.centre0 = this.centre = mid(pts[0], pts[1]);
    this.spread0 = this.spread = dist(pts[0], pts[1]);
  }

  private twoMoved(): void {
    const pts = [...this.fingers.values()].map((f) => f.at);
    if (pts.length !== 2) return;
    const c = mid(pts[0], pts[1]);
    const d = dist(pts[0], pts[1]);
    if (this.phase === "two") {
      // Whichever shows first decides: the fingers spreading or closing,
      // or both moving together.
      if (Math.abs(d - this.spread0) >= PINCH_SLOP_PX) this.phase = "pinch";
      else if (dist(c, this.centre0) >= TOUCH_SLOP_PX) this.phase = this.pansFirst(c) ? "pan" : "scroll";
      else return;
      if (this.phase === "pan") {
        // pansFirst made this step's pan already.
        this.centre = c;
        this.spread = d;
        return;
      }
    }
    if (this.phase === "pan") {
      this.sink.pan(c.x - this.centre.x, c.y - this.centre.y);
    } else if (this.phase === "scroll") {
      const s = this.map.scale();
      const dx = -(c.x - this.centre.x) * s.x;
      const dy = -(c.y - this.centre.y) * s.y;
      if (dx !== 0 || dy !== 0) {
        const at = this.mode === "direct" ? this.map.toStream(c) : this.trackpadPointer();
        this.sink.send({ type: "scroll", dx: round3(dx), dy: round3(dy), unit: "px", ...at });
      }
    } else if (this.spread > 0 && d > 0) {
      this.sink.zoom(this.centre, c, d / this.spread);
    }
    this.centre = c;
    this.spread = d;
  }

  // A drag of a picture the page can move (zoomed, or in a stage that
  // scrolls) pans it while it can pan that way, and stays a pan to the end
  // (as a browser latches a scroll gesture to the zoomed page); otherwise
  // it scrolls the desktop.
  private pansFirst(c: Point): boolean {
    const dx = c.x - this.centre.x;
    const dy = c.y - this.centre.y;
    const rest = this.sink.pan(dx, dy);
    return Math.abs(rest.x - dx) > 0.5 || Math.abs(rest.y - dy) > 0.5;
  }

  // -- helpers --

  private endGesture(): void {
    this.stopLongPress();
    this.releaseHeld();
    this.phase = "wait";
  }

  private onlyFinger(): Finger | null {
    return this.fingers.size === 1 ? [...this.fingers.values()][0] : null;
  }

  // Where a click at page point `p` lands: there (direct) or at the pointer.
  private clickPoint(p: Point): Point {
    return this.mode === "direct" ? this.map.toStream(p) : this.trackpadPointer();
  }

  // Starts at the picture's centre, once there is a picture.
  private trackpadPointerExact(): Point {
    if (!this.pointer) {
      const { width, height } = this.map.size();
      const centre = { x: Math.floor(width / 2), y: Math.floor(height / 2) };
      if (width <= 0 || height <= 0) return centre;
      this.pointer = centre;
    }
    // The desktop may have changed size since.
    const { width, height } = this.map.size();
    if (width > 0 && height > 0) {
      this.pointer.x = clamp(this.pointer.x, 0, width - 1);
      this.pointer.y = clamp(this.pointer.y, 0, height - 1);
    }
    return this.pointer;
  }

  private trackpadPointer(): Point {
    return this.rounded(this.trackpadPointerExact());
  }

  private rounded(p: Point): Point {
    return { x: Math.round(p.x), y: Math.round(p.y) };
  }

  private click(button: number, at: Point): void {
    if (button === 1) this.releaseHeld();
    this.sink.send({ type: "button", button, down: true, ...at, mods: 0 });
    this.sink.send({ type: "button", button, down: false, ...at, mods: 0 });
  }

  private press(at: Point): void {
    this.held = at;
    this.sink.send({ type: "button", button: 1, down: true, ...at, mods: 0 });
  }

  private releaseHeld(): void {
    this.stopTapRelease();
    const at = this.held;
    if (!at) return;
    this.held = null;
    this.sink.send({ type: "button", button: 1, down: false, ...at, mods: 0 });
  }

  private stopLongPress(): void {
    this.cancelLongPress?.();
    this.cancelLongPress = null;
  }

  private stopTapRelease(): void {
    this.tapRelease?.();
    this.tapRelease = null;
  }
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function mid(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

// To the thousandth, and never -0.
function round3(v: number): number {
  return Math.round(v * 1000) / 1000 || 0;
}
