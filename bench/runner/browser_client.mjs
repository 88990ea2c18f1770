// The browser viewer: voxl's own web client in a browser (headless
// Chromium, or Firefox ESR: browsers.mjs), measured the same way as the
// native client. Every time the client draws a decoded
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
// The page's own cost: CPU time of the browser's renderer (Firefox: content),
// GPU and browser processes (and the other helpers) over the window, per
// decoded frame.
//
// Frames as presented, where the page shows a video element (Chromium's
// default path): requestVideoFrameCallback's presentedFrames, the
// compositor's count, noted with Date.now() at each callback, counted over
// the same window (presented_fps, and its worst second). Nothing is read
// back. A canvas has no such count (presented_fps null); for any path,
// --browser-screen counts the frames on the browser's screen instead
// (screen_fps: present.mjs), outside the page.
//
// page_clock_drift_ms: how far the page's performance clock moved from
// Date.now() over the window, a check on the latency figures, which the
// page stamps with the former; frame_clock_drift_ms: the same, roughly, for
// the clock that stamped the frames (a worker's on the canvas path).

import fs from "node:fs";
import path from "node:path";
import { summarise, readDrawLog } from "./results.mjs";
import { launchBrowser } from "./browsers.mjs";
import { coresBetween, groupMsBetween, sample, sampleGroups } from "./cpu.mjs";
import { markerOnScreen, screenFigures } from "./present.mjs";

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

// `kind`: chromium or firefox (browsers.mjs). `wrap(executable)`, when
// given, returns the program to start in the browser's place (the lossy
// links: the browser in the viewer's namespace). `screen`, when given
// ({ display, pid, width, height, startProbe(seconds, { x, y }) -> { window, result } }):
// the browser headful on that X server, and the present probe watching it
// over the same window (screen_fps and the rest, see present.mjs).
export async function runBrowserClient({ url, logPath, cell, warmupS, seconds, onWindow, tmp, wrap, kind = "chromium", screen = null }) {
  const home = fs.mkdtempSync(path.join(tmp, "browser-"));
  const browser = await launchBrowser(kind, {
    home, wrap, display: screen?.display, width: screen?.width, height: screen?.height,
    secureOrigin: ["localhost", "127.0.0.1"].includes(new URL(url).hostname) ? null : new URL(url).origin,
  });
  try {
    const { page } = browser;
    await page.addInitScript(installMarkerReader, cell);
    const address = new URL(url);
    address.searchParams.set("marker", String(cell));
    for (const [k, v] of new URLSearchParams(process.env.VOXL_BENCH_PAGE_QUERY ?? "")) address.searchParams.set(k, v);
    await page.goto(address.href);
    await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0, 60000);
    await sleep(warmupS * 1000);
    const result = await measureWindow({ page, processes: browser.processes, logPath, seconds, onWindow, screen });
    result.browser = kind;
    result.ok = true;
    return result;
  } finally {
    await browser.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Where the page shows the picture, in CSS pixels of its window, and where
// that window is on the screen: where the probe is to read the marker on the
// browser's screen, and, if the picture is not 1:1, why none was read.
const pictureLayout = () => {
  const el = document.getElementById("screen");
  const r = el?.getBoundingClientRect();
  return r ? { left: r.left, top: r.top, width: r.width, height: r.height, window_width: innerWidth, window_height: innerHeight,
               screen_x: window.mozInnerScreenX ?? screenX, screen_y: window.mozInnerScreenY ?? screenY,
               device_pixel_ratio: devicePixelRatio } : null;
};

// The measured window, the page warmed up: the marker's counters, the
// page's stats and its processes' CPU time at each end, and the probe on
// the browser's screen over the same window.
async function measureWindow({ page, processes, logPath, seconds, onWindow, screen }) {
  const read = () => page.evaluate(() => ({ m: (window.voxl.marker ?? window.__benchMarker)(), s: window.voxl.stats(),
                                            t: Date.now(), perf: performance.timeOrigin + performance.now() }));
  const layout = screen ? await page.evaluate(pictureLayout) : null;
  // Its window opens at once (no warm-up of its own): the page's opens a
  // read later, a few ms in the probe's first second.
  const probe = screen ? screen.startProbe(seconds, markerOnScreen(layout)) : null;
  // A probe that fails says so in screen_error; the page's figures stand.
  if (probe) await probe.window.catch(() => {});
  const groups = processes();
  const before = await read();
  const cpu0 = sampleGroups(groups);
  // The browser's X server takes each frame the browser puts on its screen:
  // a cost of being headful that the browser's own processes do not show.
  const x0 = screen ? sample([screen.pid]) : null;
  const startUs = before.t * 1000;
  onWindow?.();
  await sleep(seconds * 1000);
  const cpu1 = sampleGroups(groups);
  const x1 = screen ? sample([screen.pid]) : null;
  const after = await read();
  const endUs = after.t * 1000;
  await sleep(500);
  const seen = after.m.seen.filter(([, t]) => t >= startUs && t < endUs);
  const presented = await page.evaluate(() => window.__benchPresented?.() ?? []);
  const result = summarise({
    seen, startUs, endUs, drawLog: readDrawLog(logPath),
    pictures: after.m.pictures - before.m.pictures, unreadable: after.m.unreadable - before.m.unreadable,
  });
  Object.assign(result, presentedFigures(presented, before.t, after.t));
  if (probe) {
    const [onScreen, error] = await probe.result.then((r) => [r, null], (e) => [null, e.message]);
    Object.assign(result, screenFigures(onScreen, { error, layout, width: screen.width, height: screen.height }));
    result.screen_xserver_cpu_cores = Math.round(coresBetween(x0, x1) * 100) / 100;
  }
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
  return result;
}
