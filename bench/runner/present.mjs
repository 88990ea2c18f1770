// The app-present pass: the workload alone, no streamer, with
// voxl-bench-present watching the X server's framebuffer for each marker
// counter (bench/present/present_probe.cpp). What it measures, drawn -> on
// the X server, is the part of every streamer's latency that comes before
// any streamer can see the frame.

import path from "node:path";
import { Processes } from "./processes.mjs";

// At most this long a window: the figure settles much faster than the
// streamers' frame rates do.
export const presentMaxSeconds = 10;

// Resolves to the probe's JSON (present_p50_ms, present_p99_ms, frames, ...),
// or { ok: false, error }.
export async function runPresentProbe(o, display, live) {
  const procs = new Processes({ verbose: o.verbose });
  live.add(procs);
  const seconds = Math.min(o.seconds, presentMaxSeconds);
  try {
    const probe = procs.start("present probe", path.join(o.buildDir, "voxl-bench-present"), [
      "--display", display.display, "--log", display.logPath, "--warmup-s", String(o.warmup),
      "--seconds", String(seconds), "--cell", String(o.cell),
    ], { keepStdout: true });
    // The result is the last line it prints before it exits; 'close' comes
    // once its output has been read to the end.
    let out = "";
    probe.stdout.on("data", (d) => (out += d.toString()));
    let timer;
    await Promise.race([
      new Promise((resolve) => probe.on("close", resolve)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the present probe gave no result in ${o.warmup + seconds + 60} s`)),
                           (o.warmup + seconds + 60) * 1000);
      }),
    ]).finally(() => clearTimeout(timer));
    const line = out.split("\n").reverse().find((l) => l.startsWith("{"));
    if (!line) throw new Error(`the present probe exited without a result: ${probe.stderrText.slice(-1000)}`);
    return JSON.parse(line);
  } catch (e) {
    return { ok: false, error: e.message };
  } finally {
    await procs.stopAll();
    live.delete(procs);
  }
}
