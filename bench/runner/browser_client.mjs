// The browser viewer: voxl's own web client in headless Chromium, measured
// the same way as the native client. Every time the client draws a decoded
// frame onto its canvas, a wrapper around drawImage reads the frame marker
// back off the canvas and notes the time, so "decoded" means "decoded and
// drawn", a frame the page actually shows.

import fs from "node:fs";
import path from "node:path";
import { summarise, readDrawLog } from "./results.mjs";
import { launchHeadlessChromium } from "../browser/headless_chromium.mjs";

// Runs in the page before its scripts.
function installMarkerReader(cell) {
  const columns = 16, rows = 2;
  const crc8 = (counter) => {
    let crc = 0;
    for (let i = 0; i < 3; ++i) {
      crc ^= (counter >>> (8 * i)) & 0xff;
      for (let b = 0; b < 8; ++b) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
    }
    return crc;
  };
  const seen = [];
  let pictures = 0, unreadable = 0, last = -1;
  const original = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const r = original.apply(this, args);
    if (this.canvas.id !== "screen" || this.canvas.width < cell * columns) return r;
    const t = performance.timeOrigin + performance.now();
    const px = this.getImageData(0, 0, cell * columns, cell * rows).data;
    ++pictures;
    let word = 0, ok = true;
    for (let i = 0; i < columns * rows && ok; ++i) {
      const x0 = (i % columns) * cell + cell / 4, y0 = Math.floor(i / columns) * cell + cell / 4;
      let sum = 0, n = 0;
      for (let y = y0; y < y0 + cell / 2; y += 2)
        for (let x = x0; x < x0 + cell / 2; x += 2) {
          const o = (y * cell * columns + x) * 4;
          sum += (299 * px[o] + 587 * px[o + 1] + 114 * px[o + 2]) / 1000;
          ++n;
        }
      const mean = sum / n;
      if (mean > 80 && mean < 176) ok = false;
      else if (mean >= 176) word = (word | (1 << i)) >>> 0;
    }
    const counter = word & 0xffffff;
    if (!ok || crc8(counter) !== word >>> 24) ++unreadable;
    else if (counter > last) {
      last = counter;
      seen.push([counter, Math.round(t * 1000)]);
    }
    return r;
  };
  window.__benchMarker = () => ({ seen: seen.slice(), pictures, unreadable });
}

export async function runBrowserClient({ url, logPath, cell, warmupS, seconds, onWindow, tmp }) {
    const home = fs.mkdtempSync(path.join(tmp, "browser-"));
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  const ctx = await launchHeadlessChromium(home, { width: 2000, height: 1200 });
  process.env.HOME = savedHome;
  try {
    const page = await ctx.newPage();
    await page.addInitScript(installMarkerReader, cell);
    await page.goto(url);
    await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0, null, { timeout: 60000 });
    await page.waitForTimeout(warmupS * 1000);
    const before = await page.evaluate(() => ({ m: window.__benchMarker(), s: window.voxl.stats(), t: Date.now() }));
    const startUs = before.t * 1000;
    onWindow?.();
    await page.waitForTimeout(seconds * 1000);
    const after = await page.evaluate(() => ({ m: window.__benchMarker(), s: window.voxl.stats(), t: Date.now() }));
    const endUs = after.t * 1000;
    await new Promise((r) => setTimeout(r, 500));
    const seen = after.m.seen.filter(([, t]) => t >= startUs && t < endUs);
    const result = summarise({
      seen, startUs, endUs, drawLog: readDrawLog(logPath),
      pictures: after.m.pictures - before.m.pictures, unreadable: after.m.unreadable - before.m.unreadable,
    });
    result.decode_p50_ms = after.s.decodeMs;
    result.decode_errors = after.s.errors;
    result.ok = true;
    return result;
  } finally {
    await ctx.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
