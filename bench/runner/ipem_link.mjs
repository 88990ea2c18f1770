// The lossy links (bench/ipem): for a cell on one, ipem gives this network
// namespace, where the server runs, the address 10.77.0.1, makes a viewer
// namespace of the cell's own at 10.77.0.2, and relays every packet between
// the two through the profile's path. The viewer runs in its namespace
// through `ip netns exec`. Root only (namespaces and TUN devices).

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const ipemProfiles = {
  wifi: "Wi-Fi: 30 Mbit/s, RTT 10-40 ms, 0.5 % loss",
  lte: "LTE: 10/5 Mbit/s, RTT 60-80 ms, 1 % loss in bursts",
  "lossy-long": "long haul: 20 Mbit/s, RTT 120 ms, 2 % loss",
  drop: "drop: 20 -> 2 -> 20 Mbit/s, RTT 40 ms",
};
// The drop profile's steps (bench/ipem/link_profiles.cpp), ms from ipem's start.
export const ipemSchedules = { drop: [10000, 25000] };

// Starts ipem for one cell; resolves to where the server listens, how to
// run a viewer inside, and a stop() that resolves to ipem's counts.
export async function startIpem(procs, buildDir, profile) {
  // A namespace of this cell's own (ipem refuses one that exists).
  const viewerNetns = `voxl-bench-${crypto.randomBytes(4).toString("hex")}`;
  const child = procs.start("ipem", path.join(buildDir, "ipem"), [
    "--profile", profile, "--server-netns", "", "--viewer-netns", viewerNetns], { keepStdout: true });
  const [, serverAddress, viewerAddress] = await procs.waitLine(child, /^ready (\S+) (\S+)/);
  const startedUnixMs = Date.now();
  // Its counts come as one JSON line as it ends.
  let out = "";
  child.stdout.on("data", (d) => { out = (out + d.toString()).slice(-100000); });
  const closed = new Promise((resolve) => child.stdout.once("close", resolve));
  return {
    serverAddress,
    viewerAddress,
    startedUnixMs,
    // The command line that runs `cmd` in the viewer's namespace.
    inViewer: (cmd, args) => ["ip", ["netns", "exec", viewerNetns, cmd, ...args]],
    // An executable in `dir` that runs `cmd` in the viewer's namespace with
    // the arguments it is given (for a program another one launches, such
    // as the browser, whose pipes pass through `ip netns exec`).
    viewerWrapper(dir, cmd) {
      const file = path.join(dir, `in-${viewerNetns}`);
      fs.writeFileSync(file, `#!/bin/sh\nexec ip netns exec '${viewerNetns}' '${cmd}' "$@"\n`, { mode: 0o755 });
      return file;
    },
    async stop() {
      await procs.stop(child);
      await closed;
      const line = out.trim().split("\n").pop();
      try {
        return JSON.parse(line);
      } catch {
        return null;
      }
    },
  };
}

// For each step of a rate schedule, the 100 ms steps of `series` (a
// timeline's array) from the step to the next one (or the end), handed to
// `found(first, last)`, which returns the first step that satisfies it;
// the answer is how long after the rate step that was, in ms. Null for a
// step the window missed or that never got there.
function afterEachStep(timeline, series, steps, ipemStartUnixMs, found) {
  const at = (unixMs) => Math.floor((unixMs - timeline.start_unix_ms) / timeline.step_ms);
  return steps.map((stepMs, i) => {
    const first = at(ipemStartUnixMs + stepMs);
    const last = i + 1 < steps.length ? at(ipemStartUnixMs + steps[i + 1]) : series.length;
    if (first < 0 || first >= series.length) return null;
    const b = found(first, last);
    return b == null ? null : (b - first) * timeline.step_ms;
  });
}

// For a link whose rate changes (drop): after each step, how long until the
// worst latency of a 100 ms step is under `underMs` and stays there for a
// second (or until the next step).
export function recoveryAfterSteps(timeline, steps, ipemStartUnixMs, underMs = 150) {
  if (!timeline?.worst_ms) return null;
  const hold = Math.round(1000 / timeline.step_ms);
  return afterEachStep(timeline, timeline.worst_ms, steps, ipemStartUnixMs, (first, last) => {
    for (let b = first; b < last; ++b) {
      const window = timeline.worst_ms.slice(b, Math.min(last, b + hold));
      if (window.length && window.every((v) => v === null || v < underMs) && window.some((v) => v !== null)) return b;
    }
    return null;
  });
}

// After each step: how long until the frames of a whole second (ten 100 ms
// steps of the timeline) reached `share` of what the workload drew.
export function rateRecoveryAfterSteps(timeline, steps, ipemStartUnixMs, drawnFps, share = 0.9) {
  if (!timeline?.frames || !drawnFps) return null;
  const hold = Math.round(1000 / timeline.step_ms);
  return afterEachStep(timeline, timeline.frames, steps, ipemStartUnixMs, (first, last) => {
    for (let b = first; b + hold <= last; ++b) {
      const frames = timeline.frames.slice(b, b + hold).reduce((a, n) => a + n, 0);
      if (frames >= share * drawnFps) return b;
    }
    return null;
  });
}
