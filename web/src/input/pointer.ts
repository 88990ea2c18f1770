// The mouse over the picture: positions in stream pixels whatever the
// picture's scale, buttons in X11 numbering (back and forward included),
// and wheel deltas as the browser measures them: pixels (converted to stream
// pixels) from smooth wheels and touchpads, lines or pages as notches. The
// server turns pixels into notches (--scroll-px-per-notch). Touch is
// touch_input.ts's: pointer events of type "touch" are left to it. The
// mapping from page points to stream pixels is here, for both: it reads the
// picture's client rectangle, so the page's pinch zoom is accounted for.

import { pictureSize, type ScreenElement } from "../view/screen_element";
import type { ClientMessage } from "../protocol/messages";
import { modifiers } from "./keyboard";

// Browser MouseEvent.button -> X11 button.
const BUTTONS = [1, 2, 3, 8, 9];
// A wheel in line mode says 3 lines per notch; a page counts as 3 notches.
const LINES_PER_NOTCH = 3;
const NOTCHES_PER_PAGE = 3;

// The stream pixel under a page point (client CSS px), clamped to the picture.
export function streamPoint(el: ScreenElement, clientX: number, clientY: number): { x: number; y: number } {
  const r = el.getBoundingClientRect();
  const { width: w, height: h } = pictureSize(el);
  if (r.width <= 0 || r.height <= 0 || w <= 0 || h <= 0) return { x: 0, y: 0 };
  const x = Math.floor(((clientX - r.left) * w) / r.width);
  const y = Math.floor(((clientY - r.top) * h) / r.height);
  return { x: Math.min(w - 1, Math.max(0, x)), y: Math.min(h - 1, Math.max(0, y)) };
}

// Stream pixels per CSS pixel in each axis, as the picture is shown now.
export function streamPerCss(el: ScreenElement): { x: number; y: number } {
  const r = el.getBoundingClientRect();
  const size = pictureSize(el);
  return { x: r.width > 0 ? size.width / r.width : 1, y: r.height > 0 ? size.height / r.height : 1 };
}

export interface PointerHooks {
  send(msg: ClientMessage): void;
  // Any press on the picture (focus the keyboard, user activation).
  pressed(): void;
}

export class Pointer {
  private enabled = false;

  constructor(
    private readonly canvas: ScreenElement,
    private readonly hooks: PointerHooks,
  ) {
    const el: HTMLElement = canvas;
    el.addEventListener("pointermove", (e) => this.move(e));
    el.addEventListener("pointerdown", (e) => this.button(e, true));
    el.addEventListener("pointerup", (e) => this.button(e, false));
    // Back and forward would navigate away from the page.
    el.addEventListener("mouseup", (e) => {
      if (this.enabled && e.button >= 3) e.preventDefault();
    });
    el.addEventListener("auxclick", (e) => {
      if (this.enabled) e.preventDefault();
    });
    el.addEventListener("contextmenu", (e) => {
      if (this.enabled) e.preventDefault();
    });
    el.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
  }

  setEnabled(on: boolean): void {
    this.enabled = on;
  }

  // The stream pixel under the event.
  position(e: MouseEvent): { x: number; y: number } {
    return streamPoint(this.canvas, e.clientX, e.clientY);
  }

  private move(e: PointerEvent): void {
    if (!this.enabled || e.pointerType === "touch") return;
    // Events the browser merged since the last one, in order, so a fast
    // stroke is drawn with all its points.
    const events = e.getCoalescedEvents?.() ?? [];
    for (const ev of events.length ? events : [e]) this.hooks.send({ type: "move", ...this.position(ev) });
  }

  private button(e: PointerEvent, down: boolean): void {
    if (!this.enabled || e.pointerType === "touch") return;
    const b = BUTTONS[e.button];
    if (b === undefined) return;
    e.preventDefault();
    if (down) {
      this.canvas.setPointerCapture(e.pointerId);
      this.hooks.pressed();
    }
    this.hooks.send({ type: "button", button: b, down, ...this.position(e), mods: modifiers(e) });
  }

  private wheel(e: WheelEvent): void {
    if (!this.enabled) return;
    e.preventDefault();
    const at = this.position(e);
    if (e.deltaMode === WheelEvent.DOM_DELTA_PIXEL) {
      const s = streamPerCss(this.canvas);
      this.hooks.send({ type: "scroll", dx: e.deltaX * s.x, dy: e.deltaY * s.y, unit: "px", ...at });
    } else {
      const per = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 1 / LINES_PER_NOTCH : NOTCHES_PER_PAGE;
      this.hooks.send({ type: "scroll", dx: e.deltaX * per, dy: e.deltaY * per, unit: "notch", ...at });
    }
  }
}
