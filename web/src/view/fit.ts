// Where the stream goes in the window: letterboxed, never enlarged, and placed
// on whole device pixels so that at 1:1 each stream pixel lands on exactly one
// screen pixel.

export interface Fit {
  scale: number; // device pixels per stream pixel, at most 1
  // The picture's rectangle in CSS pixels, relative to the window.
  left: number;
  top: number;
  width: number;
  height: number;
  // Smoothing only blurs an exact integer scale; anything else needs it.
  pixelated: boolean;
}

// `viewW`/`viewH` are the window's size in device pixels, `dpr` the device
// pixels per CSS pixel.
export function fitStream(streamW: number, streamH: number, viewW: number, viewH: number, dpr: number): Fit {
  if (streamW <= 0 || streamH <= 0 || viewW <= 0 || viewH <= 0 || !(dpr > 0)) {
    return { scale: 1, left: 0, top: 0, width: 0, height: 0, pixelated: false };
  }
  const scale = Math.min(1, viewW / streamW, viewH / streamH);
  const w = Math.max(1, Math.round(streamW * scale));
  const h = Math.max(1, Math.round(streamH * scale));
  const x = Math.floor((viewW - w) / 2);
  const y = Math.floor((viewH - h) / 2);
  return {
    scale,
    left: x / dpr,
    top: y / dpr,
    width: w / dpr,
    height: h / dpr,
    pixelated: Number.isInteger(scale),
  };
}

// With dynamic resolution: the desktop shown at `f` desktop pixels per CSS
// pixel (CSS size = desktop / f, so 1:1 in device pixels when f == dpr),
// centred on whole device pixels; null when that does not fit the window
// (another viewer's larger desktop, or the smallest the server allows), and
// the caller falls back to fitStream.
export function fitDesktop(streamW: number, streamH: number, viewW: number, viewH: number, dpr: number, f: number): Fit | null {
  if (streamW <= 0 || streamH <= 0 || viewW <= 0 || viewH <= 0 || !(dpr > 0) || !(f > 0)) return null;
  const scale = dpr / f;
  const w = scale === 1 ? streamW : Math.max(1, Math.round(streamW * scale));
  const h = scale === 1 ? streamH : Math.max(1, Math.round(streamH * scale));
  if (w > viewW || h > viewH) return null;
  const x = Math.floor((viewW - w) / 2);
  const y = Math.floor((viewH - h) / 2);
  return { scale, left: x / dpr, top: y / dpr, width: w / dpr, height: h / dpr, pixelated: Number.isInteger(scale) };
}

// Scaling mode 1:1: one stream pixel on one device pixel whatever the
// window's size, centred while it fits and from the top left corner (the
// stage scrolls) where it does not.
export function fitNative(streamW: number, streamH: number, viewW: number, viewH: number, dpr: number): Fit {
  if (streamW <= 0 || streamH <= 0 || !(dpr > 0)) return { scale: 1, left: 0, top: 0, width: 0, height: 0, pixelated: false };
  const x = Math.max(0, Math.floor((viewW - streamW) / 2));
  const y = Math.max(0, Math.floor((viewH - streamH) / 2));
  return { scale: 1, left: x / dpr, top: y / dpr, width: streamW / dpr, height: streamH / dpr, pixelated: true };
}
