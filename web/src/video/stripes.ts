// A striped stream (the server's --stripes): the picture is coded as
// horizontal bands, each its own H.264 stream with its own decoder, and
// shown as one picture by drawing each band at its rows when its frame
// decodes. This is the bookkeeping for that, the same for every way the
// page draws (video_renderer.ts, canvas_drawer.ts, render_worker.ts):
// where a decoded frame goes, which frames belong to a layout the picture
// has left behind, and what counts as a picture in the figures. An
// unstriped stream is stripe 0 of 1 and every frame the whole picture.
//
// Pure logic; any thread.

import type { StripePart } from "../protocol/messages";

// Where a decoded frame goes: its stream's band of a picture of
// width x height (the header's fields).
export interface Placement extends StripePart {
  width: number;
  height: number;
}

export function isStriped(p: Placement): boolean {
  return p.stripes > 1;
}

// The canvas a frame of `frameWidth` x `frameHeight` is drawn on, and the
// rectangle it takes there. A whole picture sizes the canvas itself, as it
// always has; a band goes at its rows of a canvas of the whole picture's size.
export interface BandRect {
  canvasWidth: number;
  canvasHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export function bandRect(p: Placement, frameWidth: number, frameHeight: number): BandRect {
  if (!isStriped(p)) {
    return { canvasWidth: frameWidth, canvasHeight: frameHeight, x: 0, y: 0, width: frameWidth, height: frameHeight };
  }
  return { canvasWidth: p.width, canvasHeight: p.height, x: 0, y: p.bandY, width: p.width, height: p.bandHeight };
}

// The picture's size as the page shows it once a frame is drawn: the
// frame's own for a whole picture, the header's for a band.
export function pictureSize(p: Placement, frameWidth: number, frameHeight: number): { width: number; height: number } {
  return isStriped(p) ? { width: p.width, height: p.height } : { width: frameWidth, height: frameHeight };
}

// Layouts, numbered in the order their frames arrive. A layout is how the
// picture is cut (how many stripes) at what size; every stream restarts on
// a key frame when it changes, so bands of different layouts never make
// one picture. The stripes' decoders are independent and may output an old
// layout's band after the new layout's first: such a band must not be
// drawn over the new picture, and frames of an older layout still waiting
// to be drawn must not be drawn after the new layout's.
//
// tag() numbers a message as it goes into its decoder; admit() judges the
// decoded frame by that number.
export type Admission = "show" | "newer" | "stale";

export class LayoutGenerations {
  private last: { stripes: number; width: number; height: number } | null = null;
  private arriving = 0; // the layout of the newest message
  private shown = 0; // the newest layout a decoded frame came out in

  tag(p: Placement): number {
    const l = this.last;
    if (!l || l.stripes !== p.stripes || l.width !== p.width || l.height !== p.height) {
      if (l) this.arriving++;
      this.last = { stripes: p.stripes, width: p.width, height: p.height };
    }
    return this.arriving;
  }

  // "newer": the first frame of a newer layout (drop what waits from the
  // old one, then show it); "stale": from a layout already replaced (do
  // not draw it); "show" otherwise.
  admit(generation: number): Admission {
    if (generation < this.shown) return "stale";
    if (generation > this.shown) {
      this.shown = generation;
      return "newer";
    }
    return "show";
  }

  // A new connection: its first message starts a layout of its own.
  reset(): void {
    this.last = null;
    this.arriving++;
  }
}

// Whether a decoded frame is a new picture for the frame rate: a capture
// that changed several bands arrives as one frame per band, all stamped
// with that capture's time, one after the other (stripe 0 first), so a
// band counts only when its capture time differs from the last band's. An
// unstriped stream's every frame is a picture, as it always was.
export class PictureCounter {
  private lastCaptureUs: number | null = null;

  count(stripes: number, captureUs: number): boolean {
    if (stripes <= 1) {
      this.lastCaptureUs = null;
      return true;
    }
    if (captureUs === this.lastCaptureUs) return false;
    this.lastCaptureUs = captureUs;
    return true;
  }

  reset(): void {
    this.lastCaptureUs = null;
  }
}
