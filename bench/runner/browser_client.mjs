// The browser viewer: voxl's own web client in headless Chromium, measured
// the same way as the native client. Every time the client draws a decoded
// frame, the frame marker is read and the time noted, so "decoded" means
// "decoded and drawn", a frame the page actually shows. A page whose test
// hook reads the marker itself (window.voxl.marker, with ?marker=CELL in the
// address: it reads the drawn frame wherever it draws, e.g. in a worker) is
// asked for it; for an older page, a wrapper around the main thread's
// drawImage reads the marker back off the canvas.
//
// VOXL_BENCH_PAGE_QUERY adds to the page's address (e.g. "worker=0" for the
// page's main-thread path, "draw=bitmap"), for comparing the page's ways.
//
// The page's own cost: CPU time of Chromium's renderer, GPU and browser
// processes (and the other helpers) over the window, per decoded frame.
//
// Frames as presented, where the page shows a video element (Chromium's
// default path): requestVideoFrameCallback's presentedFrames, the
// compositor's count, noted with Date.now() at each callback, counted over
// the same window (presented_fps, and its worst second). Nothing is read
// back. A canvas has no such count (presented_fps null).
//
// page_clock_drift_ms: how far the page's performance clock moved from
// Date.now() over the window, a check on the latency figures, which the
// page stamps with the former; frame_clock_drift_ms: the same, roughly, for
// the clock that stamped the frames (a worker's on the canvas path).

import fs from "node:fs";
import path from "node:path";
import { summarise, readDrawLog } from "./results.mjs";
import { chromiumPath, launchHeadlessChromium } from "../browser/headless_chromium.mjs";
import { chromiumProcesses, sampleGroups, groupMsBetween } from "./cpu.mjs";

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
  // [presentedFrames, Date.now()] at each presented video frame, bounded.
  const presented = [];
  const watch = (video) => {
    if (typeof video.requestVideoFrameCallback !== "function" || video.__benchWatched) return;
    video.__benchWatched = true;
    const onFrame = (_now, meta) => {
      if (presented.length < 200000) presented.push([meta.presentedFrames, Date.now()]);
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  new MutationObserver(() => document.querySelectorAll("video").forEach(watch)).observe(document, {
    childList: true, subtree: true,
  });
  window.__benchPresented = () => presented.slice();
  const original = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const r = original.apply(this, args);
    if (window.voxl?.marker || this.canvas.id !== "screen" || this.canvas.width < cell * columns) return r;
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

// Presented frames per second over [startMs, endMs) and the worst whole
// second, from [presentedFrames, Date.now()] samples; nulls without any.
export function presentedFigures(samples, startMs, endMs) {
  const none = { presented_fps: null, presented_fps_worst_second: null };
  const countAt = (t) => {
    let n = null;
    for (const [frames, at] of samples) if (at <= t) n = Math.max(n ?? frames, frames);
    return n;
  };
  const first = countAt(startMs), last = countAt(endMs);
  if (first == null || last == null || endMs <= startMs) return none;
  const seconds = (endMs - startMs) / 1000;
  let worst = null;
  for (let s = 0; s + 1 <= seconds; ++s) {
    const a = countAt(startMs + s * 1000), b = countAt(startMs + (s + 1) * 1000);
    if (a != null && b != null) worst = Math.min(worst ?? b - a, b - a);
  }
  return { presented_fps: Math.round(((last - first) / seconds) * 100) / 100, presented_fps_worst_second: worst };
}

// `wrap(executable)`, when given, returns the program to start in the
// browser's place (the lossy links: the browser in the viewer's namespace).
export async function runBrowserClient({ url, logPath, cell, warmupS, seconds, onWindow, tmp, wrap }) {
  const home = fs.mkdtempSync(path.join(tmp, "browser-"));
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  const ctx = await launchHeadlessChromium(home, { width: 2000, height: 1200 }, {
    executable: wrap ? wrap(chromiumPath()) : chromiumPath(),
    secureOrigin: ["localhost", "127.0.0.1"].includes(new URL(url).hostname) ? null : new URL(url).origin,
  });
  process.env.HOME = savedHome;
  try {
    const page = await ctx.newPage();
    await page.addInitScript(installMarkerReader, cell);
    const address = new URL(url);
    address.searchParams.set("marker", String(cell));
    for (const [k, v] of new URLSearchParams(process.env.VOXL_BENCH_PAGE_QUERY ?? "")) address.searchParams.set(k, v);
    await page.goto(address.href);
    await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0, null, { timeout: 60000 });
    await page.waitForTimeout(warmupS * 1000);
    const read = () => page.evaluate(() => ({ m: (window.voxl.marker ?? window.__benchMarker)(), s: window.voxl.stats(),
                                              t: Date.now(), perf: performance.timeOrigin + performance.now() }));
    const groups = chromiumProcesses(path.join(home, "profile"));
    const before = await read();
    const cpu0 = sampleGroups(groups);
    const startUs = before.t * 1000;
    onWindow?.();
    await page.waitForTimeout(seconds * 1000);
    const cpu1 = sampleGroups(groups);
    const after = await read();
    const endUs = after.t * 1000;
    await new Promise((r) => setTimeout(r, 500));
    const seen = after.m.seen.filter(([, t]) => t >= startUs && t < endUs);
    const presented = await page.evaluate(() => window.__benchPresented?.() ?? []);
    const result = summarise({
      seen, startUs, endUs, drawLog: readDrawLog(logPath),
      pictures: after.m.pictures - before.m.pictures, unreadable: after.m.unreadable - before.m.unreadable,
    });
    Object.assign(result, presentedFigures(presented, before.t, after.t));
    // How far the page's performance clock (timeOrigin + now(), which the
    // page stamps its frames with) moved from the wall clock over the window.
    result.page_clock_drift_ms = Math.round((after.perf - after.t - (before.perf - before.t)) * 10) / 10;
    // The same for the clock that stamped the frames (a worker's own, on the
    // canvas path), from the newest stamp at each read: within a frame
    // interval of the truth.
    const newest = (r) => r.m.seen.at(-1)?.[1];
    if (newest(before) != null && newest(after) != null)
      result.frame_clock_drift_ms = Math.round((newest(after) / 1000 - after.t - (newest(before) / 1000 - before.t)) * 10) / 10;
    result.decode_p50_ms = after.s.decodeMs;
    result.decode_errors = after.s.errors;
    result.drawer = after.s.drawer ?? "main thread";
    const decoded = after.s.framesDecoded - before.s.framesDecoded;
    const ms = groupMsBetween(cpu0, cpu1);
    const total = Object.values(ms).reduce((a, b) => a + b, 0);
    const perFrame = (v) => (decoded > 0 ? Math.round((v / decoded) * 100) / 100 : null);
    result.page_frames_decoded = decoded;
    result.page_cpu_cores = Math.round((total / ((cpu1.at - cpu0.at) || 1)) * 100) / 100;
    result.page_cpu_ms_per_frame = perFrame(total);
    result.page_cpu_ms_per_frame_by_process = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, perFrame(v)]));
    result.page_processes = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.length]));
    result.ok = true;
    return result;
  } finally {
    await ctx.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
