// voxl-bench-present (bench/present/present_probe.cpp) watching an X
// server's framebuffer for each marker counter, two ways:
//
// The app-present pass: the workload alone, no streamer, the probe on the
// workload's own X server. What it measures, drawn -> on the X server, is
// the part of every streamer's latency that comes before any streamer can
// see the frame.
//
// The browser's screen (bench/run --browser-screen): the probe on the X
// server a headful browser shows voxl's page on, the page filling it, so the
// remote picture's marker sits at the screen's top-left corner like the
// workload's own (or, where the window is wider than the picture, at the
// offset the page laid the picture out at: --x/--y). What it sees is what
// the browser's compositor put on the screen: frames as presented, for any
// way the page draws (a canvas has no presented-frames count of its own),
// and drawn -> on the viewer's screen.

import path from "node:path";
import { Processes } from "./processes.mjs";

// At most this long a window: the figure settles much faster than the
// streamers' frame rates do.
export const presentMaxSeconds = 10;

// Starts the probe on `display`: { window, result }. `window` resolves when
// the measured window opens (after `warmupS`), `result` to the probe's JSON
// (present_p50_ms, present_p99_ms, frames, fps, ...) once it has exited;
// either rejects if the probe fails. The probe's process belongs to `procs`.
// `x`, `y`: the strip's corner on the screen, passed only when not 0,0 (a
// probe built before it had --x/--y still serves the corner).
export function startPresentProbe(procs, buildDir, { display, logPath, warmupS, seconds, cell, x = 0, y = 0 }) {
  const probe = procs.start("present probe", path.join(buildDir, "voxl-bench-present"), [
    "--display", display, "--log", logPath, "--warmup-s", String(warmupS), "--seconds", String(seconds), "--cell", String(cell),
    ...(x || y ? ["--x", String(x), "--y", String(y)] : []),
  ], { keepStdout: true });
  let out = "";
  let opened;
  const window = new Promise((resolve, reject) => (opened = { resolve, reject }));
  probe.stdout.on("data", (d) => {
    out += d.toString();
    if (/^window$/m.test(out)) opened.resolve();
  });
  // The result is the last line it prints before it exits; 'close' comes
  // once its output has been read to the end.
  const limitS = warmupS + seconds + 60;
  let timer;
  const result = Promise.race([
    new Promise((resolve) => probe.on("close", resolve)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the present probe gave no result in ${limitS} s`)), limitS * 1000);
    }),
  ]).finally(() => clearTimeout(timer)).then(() => {
    const line = out.split("\n").reverse().find((l) => l.startsWith("{"));
    // --x/--y came with the browser's screen: an older probe rejects them.
    if (!line && (x || y) && /--x|--y/.test(probe.stderrText))
      throw new Error(`voxl-bench-present has no --x/--y, rebuild it: ${probe.stderrText.slice(-1000)}`);
    if (!line) throw new Error(`the present probe exited without a result: ${probe.stderrText.slice(-1000)}`);
    return JSON.parse(line);
  });
  // A probe that ends before its window opens never will.
  result.then(() => opened.reject(new Error("the present probe ended before its window")), (e) => opened.reject(e));
  window.catch(() => {});
  return { window, result };
}

// Resolves to the probe's JSON for the workload's own display, or
// { ok: false, error }.
export async function runPresentProbe(o, display, live) {
  const procs = new Processes({ verbose: o.verbose });
  live.add(procs);
  try {
    return await startPresentProbe(procs, o.buildDir, { display: display.display, logPath: display.logPath, warmupS: o.warmup,
                                                        seconds: Math.min(o.seconds, presentMaxSeconds), cell: o.cell }).result;
  } catch (e) {
    return { ok: false, error: e.message };
  } finally {
    await procs.stopAll();
    live.delete(procs);
  }
}

// The browser column's on-screen fields from the probe's JSON on the
// browser's display (`probe`), or from the error that kept it from one.
// screen_latency is drawn (the workload) -> on the viewer's screen.
// `layout` (browser_client.mjs) is where the page showed the picture, to
// say so when that was not 1:1 (`width` x `height`) where the probe read.
// Where on the browser's screen the page's `layout` puts the picture's
// corner, in device pixels: where the probe is to read the marker.
export const markerOnScreen = (layout) => (layout ? {
  x: Math.max(0, Math.round((layout.screen_x + layout.left) * layout.device_pixel_ratio)),
  y: Math.max(0, Math.round((layout.screen_y + layout.top) * layout.device_pixel_ratio)),
} : { x: 0, y: 0 });

export function screenFigures(probe, { error = null, layout = null, width, height } = {}) {
  if (!probe) return { screen_fps: null, screen_fps_worst_second: null, screen_error: error ?? "no probe result", screen_layout: layout };
  const figures = {
    screen_fps: probe.fps ?? null, screen_fps_worst_second: probe.fps_worst_second ?? null,
    screen_latency_p50_ms: probe.present_p50_ms ?? null, screen_latency_p99_ms: probe.present_p99_ms ?? null,
    screen_frames: probe.frames ?? null, screen_reads: probe.reads ?? null, screen_unreadable: probe.unreadable ?? null,
  };
  // Not one counter read: the marker is not where the probe looks (the
  // picture moved, or is scaled).
  if (!probe.ok || !probe.frames) figures.screen_error = probe.error ?? "no marker counter seen on the browser's screen";
  // A picture scaled a little may still show a readable marker: the count
  // stands, with a note; with nothing read, the note says why.
  if (layout && !(layout.width === width && layout.height === height && layout.device_pixel_ratio === 1)) {
    figures.screen_layout_off = `the picture was ${layout.width}x${layout.height} CSS pixels at ` +
      `${layout.device_pixel_ratio} device pixels each on the browser's screen, not ${width}x${height} at 1`;
    if (figures.screen_error) figures.screen_error += ` (${figures.screen_layout_off})`;
  }
  figures.screen_layout = layout;
  return figures;
}
