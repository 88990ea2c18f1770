// The desktop's pointer shape as the page's own cursor over the picture,
// scaled with the picture, so the pointer moves at the browser's speed and
// is never part of the video. Shapes are kept by serial: the server sends an
// image once and then only its serial.

import { pictureSize, type ScreenElement } from "../view/screen_element";
import type { CursorMessage } from "../protocol/messages";

const MAX_SHAPES = 64;
// Browsers ignore cursor images larger than this (CSS pixels).
const MAX_CURSOR_PX = 128;

interface Shape {
  hidden: boolean;
  width: number;
  height: number;
  hotX: number;
  hotY: number;
  image: HTMLCanvasElement | null;
}

export interface CursorState {
  serial: number;
  hidden: boolean;
  hotX: number;
  hotY: number;
  width: number;
  height: number;
  css: string;
}

export class RemoteCursor {
  private readonly shapes = new Map<number, Shape>();
  private serial = -1;
  private scale = 0;
  private dpr = 0;
  private css = "";

  constructor(private readonly canvas: ScreenElement) {
    new ResizeObserver(() => this.apply()).observe(canvas);
  }

  onMessage(m: CursorMessage): void {
    if (m.hidden) {
      this.remember(m.serial, { hidden: true, width: 0, height: 0, hotX: 0, hotY: 0, image: null });
    } else if (m.rgba !== undefined) {
      const shape = decode(m);
      if (!shape) return;
      this.remember(m.serial, shape);
    } else if (!this.shapes.has(m.serial)) {
      return;  // a serial this page never got an image for (cannot happen within one connection)
    }
    this.serial = m.serial;
    this.scale = 0;
    this.apply();
  }

  // The picture's scale may have changed (a new stream size in the same box).
  refresh(): void {
    this.apply();
  }

  // A new connection starts without a shape: the server sends the current one.
  reset(): void {
    this.shapes.clear();
    this.serial = -1;
    this.set("");
  }

  state(): CursorState | null {
    const s = this.shapes.get(this.serial);
    if (!s) return null;
    return { serial: this.serial, hidden: s.hidden, hotX: s.hotX, hotY: s.hotY, width: s.width, height: s.height, css: this.css };
  }

  private remember(serial: number, shape: Shape): void {
    this.shapes.delete(serial);
    if (this.shapes.size >= MAX_SHAPES) {
      const oldest = this.shapes.keys().next();
      if (!oldest.done) this.shapes.delete(oldest.value);
    }
    this.shapes.set(serial, shape);
  }

  // Redraws the cursor at the picture's current scale (CSS pixels per
  // stream pixel); the hotspot scales with it.
  private apply(): void {
    const s = this.shapes.get(this.serial);
    if (!s) return;
    if (s.hidden || !s.image) {
      this.set("none");
      return;
    }
    const r = this.canvas.getBoundingClientRect();
    const pw = pictureSize(this.canvas).width;
    // CSS pixels per stream pixel, and the screen's device pixels per CSS pixel.
    const scale = pw > 0 && r.width > 0 ? r.width / pw : 1;
    const dpr = window.devicePixelRatio || 1;
    if (scale === this.scale && dpr === this.dpr && this.css) return;
    this.scale = scale;
    this.dpr = dpr;
    // The cursor's size in CSS pixels follows the picture's; on a screen of
    // another pixel ratio its image has that many pixels per CSS pixel
    // (image-set), so a picture shown 1:1 in device pixels gets a cursor
    // drawn 1:1 too, not one enlarged from a smaller image.
    const fit = Math.min(scale, MAX_CURSOR_PX / Math.max(s.width, s.height));
    const density = dpr !== 1 && imageSetCursors() ? dpr : 1;
    const w = Math.max(1, Math.round(s.width * fit * density));
    const h = Math.max(1, Math.round(s.height * fit * density));
    let url: string;
    if (w === s.width && h === s.height) {
      url = s.image.toDataURL("image/png");
    } else {
      const c = document.createElement("canvas");
      c.width = w;
      c.height = h;
      const ctx = c.getContext("2d");
      if (!ctx) return;
      ctx.imageSmoothingEnabled = w < s.width || !Number.isInteger(w / s.width);
      ctx.drawImage(s.image, 0, 0, w, h);
      url = c.toDataURL("image/png");
    }
    // The hotspot in CSS pixels (browsers scale it with the image's density).
    const cssW = Math.max(1, Math.round(w / density));
    const cssH = Math.max(1, Math.round(h / density));
    const hx = Math.min(cssW - 1, Math.round(s.hotX * fit));
    const hy = Math.min(cssH - 1, Math.round(s.hotY * fit));
    const image = density === 1 ? `url(${url})` : `image-set(url(${url}) ${density}x)`;
    this.set(`${image} ${hx} ${hy}, default`);
  }

  private set(css: string): void {
    this.css = css;
    this.canvas.style.cursor = css;
  }
}

let imageSetSupport: boolean | null = null;

// Whether this browser takes image-set() for a cursor (Chromium 113+,
// Firefox 89+, Safari 17+).
function imageSetCursors(): boolean {
  imageSetSupport ??= CSS.supports("cursor", "image-set(url(data:,) 2x) 0 0, default");
  return imageSetSupport;
}

function decode(m: CursorMessage): Shape | null {
  const w = m.width ?? 0;
  const h = m.height ?? 0;
  if (w <= 0 || h <= 0 || !m.rgba) return null;
  let bytes: Uint8ClampedArray;
  try {
    const bin = atob(m.rgba);
    bytes = new Uint8ClampedArray(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  } catch {
    return null;
  }
  if (bytes.length !== w * h * 4) return null;
  const image = document.createElement("canvas");
  image.width = w;
  image.height = h;
  const ctx = image.getContext("2d");
  if (!ctx) return null;
  ctx.putImageData(new ImageData(bytes, w, h), 0, 0);
  return { hidden: false, width: w, height: h, hotX: m.hot_x ?? 0, hotY: m.hot_y ?? 0, image };
}
