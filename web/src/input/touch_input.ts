// Touch on the picture: the browser's touch events on the stage (the
// picture and the bars around it) fed to the gesture recogniser
// (touch_gestures.ts), whose clicks, drags and scrolls go out through the
// same send path as the mouse's, mapped to stream pixels as pointer.ts maps
// them (zoom included), and whose pinches and zoomed two-finger drags zoom
// and pan the picture (picture_zoom.ts); in 1:1 mode, where the stage
// scrolls, a two-finger drag scrolls it as far as it goes before the
// desktop scrolls (as a zoomed picture pans first).
//
// The stage has touch-action: none and every touch's default action is
// cancelled, so the browser neither scrolls nor zooms the page nor makes
// mouse events, focus changes or menus of its own: the page scrolls the
// stage itself. A view-only viewer (or one without control) still pinches
// to zoom and scrolls the stage; it sends nothing.
//
// Main thread.

import type { ClientMessage } from "../protocol/messages";
import type { PictureZoom } from "../view/picture_zoom";
import { pictureSize, type ScreenElement } from "../view/screen_element";
import { streamPerCss, streamPoint } from "./pointer";
import { TouchGestures, type GestureClock, type Point, type TouchMode } from "./touch_gestures";
import { TouchMarker } from "./touch_marker";

// Where the zoom lives: the view's.
export interface ZoomHost {
  readonly zoom: PictureZoom;
  // Where the zoom's coordinates have their origin, in client coordinates.
  stageOrigin(): Point;
  // Scrolls the stage by a finger's move, as far as it goes; returns the rest.
  scrollStage(dx: number, dy: number): Point;
}

// When the pointer leaves the zoomed picture's visible part, it pans to
// keep the pointer this far (CSS px) inside.
const REVEAL_MARGIN_PX = 24;

const browserClock: GestureClock = {
  now: () => performance.now(),
  later: (ms, fn) => {
    const t = window.setTimeout(fn, ms);
    return () => window.clearTimeout(t);
  },
};

export class TouchInput {
  private enabled = false;
  private seen = false;
  private readonly gestures: TouchGestures;
  private readonly marker: TouchMarker;

  constructor(
    private readonly canvas: ScreenElement,
    private readonly host: ZoomHost,
    private readonly send: (msg: ClientMessage) => void,
    mode: TouchMode,
    // The mode changed, or the first touch was seen.
    private readonly changed: () => void = () => undefined,
  ) {
    const surface = canvas.parentElement ?? canvas;
    for (const el of [surface, canvas]) {
      el.style.touchAction = "none";
      // No text selection, magnifier or link callout from a long press.
      el.style.userSelect = "none";
      el.style.setProperty("-webkit-user-select", "none");
      el.style.setProperty("-webkit-touch-callout", "none");
    }
    // A long press is the desktop's right click, not the browser's menu.
    surface.addEventListener("contextmenu", (e) => {
      if (this.seen) e.preventDefault();
    });
    this.marker = new TouchMarker(document.body);
    this.gestures = new TouchGestures(
      {
        toStream: (p) => streamPoint(this.canvas, p.x, p.y),
        scale: () => streamPerCss(this.canvas),
        size: () => pictureSize(this.canvas),
      },
      {
        send: (m) => this.forward(m),
        zoom: (from, to, ratio) => {
          const o = this.host.stageOrigin();
          this.host.zoom.pinch({ x: from.x - o.x, y: from.y - o.y }, { x: to.x - o.x, y: to.y - o.y }, ratio);
        },
        pan: (dx, dy) => {
          const rest = this.host.zoom.pan(dx, dy);
          return rest.x !== 0 || rest.y !== 0 ? this.host.scrollStage(rest.x, rest.y) : rest;
        },
      },
      browserClock,
      mode,
    );
    const opts = { passive: false };
    surface.addEventListener("touchstart", (e) => this.touches(e, "down"), opts);
    surface.addEventListener("touchmove", (e) => this.touches(e, "move"), opts);
    surface.addEventListener("touchend", (e) => this.touches(e, "up"), opts);
    surface.addEventListener("touchcancel", (e) => this.touches(e, "cancel"), opts);
  }

  get mode(): TouchMode {
    return this.gestures.currentMode;
  }

  // Whether this page has seen a touch on the picture.
  get touched(): boolean {
    return this.seen;
  }

  setMode(mode: TouchMode): void {
    if (mode === this.mode) return;
    this.gestures.setMode(mode);
    this.refreshMarker();
    this.changed();
  }

  // Off: the gesture under way is dropped without a word to the server,
  // which releases a viewer's buttons itself when it stops taking its input.
  setEnabled(on: boolean): void {
    if (!on) this.gestures.reset();
    this.enabled = on;
    this.refreshMarker();
  }

  // The picture moved or changed scale (layout, zoom): the marker follows.
  pictureMoved(): void {
    this.refreshMarker();
  }

  private touches(e: TouchEvent, what: "down" | "move" | "up" | "cancel"): void {
    // Nothing of the browser's own: no scrolling, zooming, mouse emulation
    // or focus change.
    if (e.cancelable) e.preventDefault();
    if (!this.seen) {
      this.seen = true;
      this.changed();
    }
    const touches = Array.from(e.changedTouches);
    if (what === "move") {
      this.gestures.moveAll(touches.map((t) => ({ id: t.identifier, x: t.clientX, y: t.clientY })));
      return;
    }
    for (const t of touches) {
      if (what === "down") this.gestures.down(t.identifier, t.clientX, t.clientY);
      else if (what === "up") this.gestures.up(t.identifier, t.clientX, t.clientY);
      else this.gestures.cancel(t.identifier);
    }
    if (what === "down") this.refreshMarker();
  }

  private forward(m: ClientMessage): void {
    if (!this.enabled) return;
    this.send(m);
    if (m.type === "move" && this.mode === "trackpad") {
      this.host.zoom.reveal(this.stagePoint(m.x, m.y), REVEAL_MARGIN_PX);
      this.refreshMarker();
    }
  }

  // A stream pixel's centre in stage coordinates, as the picture is shown.
  private stagePoint(x: number, y: number): Point {
    const p = this.clientPoint(x, y);
    const o = this.host.stageOrigin();
    return { x: p.x - o.x, y: p.y - o.y };
  }

  private clientPoint(x: number, y: number): Point {
    const r = this.canvas.getBoundingClientRect();
    const { width, height } = pictureSize(this.canvas);
    if (width <= 0 || height <= 0) return { x: r.left, y: r.top };
    return { x: r.left + ((x + 0.5) * r.width) / width, y: r.top + ((y + 0.5) * r.height) / height };
  }

  // The trackpad's pointer is drawn by the page: a touch screen shows no
  // cursor of its own.
  private refreshMarker(): void {
    const p = this.gestures.pointerPosition();
    if (!this.enabled || !this.seen || this.mode !== "trackpad" || !p || this.canvas.hidden) {
      this.marker.hide();
      return;
    }
    this.marker.show(this.clientPoint(p.x, p.y));
  }
}
