// A peer's own native viewer, measured where its user sees it: the viewer
// runs full screen on an Xvfb of its own the desktop's size (so the remote
// picture is 1:1 from the corner) and voxl-bench-present reads the marker
// off that screen over the measured window. Its fps, worst second and
// latency are the frames that viewer put on its screen and drawn -> on
// that screen, like the browsers' "on screen" figures (present.mjs); there
// is no picture-quality figure, since nothing decodes the stream here.
//
// Only TigerVNC's viewer (xtigervncviewer, Debian's tigervnc-viewer) so far,
// with its defaults (its own encoding choice by link speed) as a person
// would start it; -RemoteResize=0 keeps the server's desktop size.

import { sample, coresBetween } from "./cpu.mjs";
import { screenFigures } from "./present.mjs";

export const nativeViewers = {
  tigervnc: {
    command: "xtigervncviewer",
    args: (host, port) => ["-FullScreen", "-SecurityTypes", "None", "-RemoteResize=0", `${host}::${port}`],
  },
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves to the cell's result: the screen's figures as fps and latency,
// so the tables print them beside the other viewers' (the probe's reads
// under screen_*).
export async function runNativeViewer(procs, { viewer, host, port, screen, warmupS, seconds, onWindow }) {
  const v = nativeViewers[viewer];
  if (!v) throw new Error(`unknown native viewer ${viewer}`);
  const p = procs.start("native viewer", v.command, v.args(host, port), { env: { ...process.env, DISPLAY: screen.display } });
  await sleep(warmupS * 1000);
  if (p.exitCode !== null || p.spawnError)
    throw new Error(`${v.command} ended during the warm-up: ${p.spawnError?.message ?? p.stderrText.slice(-1000)}`);
  const probe = screen.startProbe(seconds, { x: 0, y: 0 });
  await probe.window;
  onWindow?.();
  const x0 = sample([screen.pid]);
  const [onScreen, error] = await probe.result.then((r) => [r, null], (e) => [null, e.message]);
  const x1 = sample([screen.pid]);
  const f = screenFigures(onScreen, { error, width: screen.width, height: screen.height });
  if (f.screen_error) throw new Error(`${v.command}'s screen: ${f.screen_error}`);
  return {
    ok: true, seconds, frames: f.screen_frames, drawn_fps: onScreen.drawn_fps ?? null,
    fps: f.screen_fps, fps_worst_second: f.screen_fps_worst_second,
    latency_p50_ms: f.screen_latency_p50_ms, latency_p99_ms: f.screen_latency_p99_ms,
    screen_reads: f.screen_reads, screen_unreadable: f.screen_unreadable,
    screen_xserver_cpu_cores: Math.round(coresBetween(x0, x1) * 100) / 100,
  };
}
