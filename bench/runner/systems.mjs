// The streamers compared, each started fresh for a cell against a display.
// start() resolves to { pids, port, kind } once the server accepts
// connections on `host` (127.0.0.1, or the address ipem gives the server's
// side); kind says how the native client reads it.

import path from "node:path";
import { freePort, waitPort } from "./processes.mjs";

// voxl with `flags` added to its command line.
function voxlWith(label, flags) {
  return {
    label,
    kind: "voxl",
    async start(procs, { display, buildDir, host = "127.0.0.1" }) {
      const port = await freePort();
      // Off loopback voxl asks for credentials: a token of the run's own.
      const token = host === "127.0.0.1" ? null : `bench-${process.pid}-${port}-token`;
      const p = procs.start("voxl", path.join(buildDir, "voxl"), [
        `--display=${display}`, `--addr=${host}`, `--port=${port}`, "--log-level=warn", ...flags,
        ...(token ? [`--auth-token=${token}`] : []),
        // Extra flags for an A/B of a setting, e.g. VOXL_BENCH_VOXL_ARGS="--paintover-444=false".
        ...(process.env.VOXL_BENCH_VOXL_ARGS ?? "").split(/\s+/).filter(Boolean),
      ]);
      await waitPort(port, 30000, p, host);
      return { pids: [p.pid], port, process: p, token };
    },
  };
}

export const systems = {
  voxl: voxlWith("voxl", []),
  // The picture coded as horizontal stripes, each on its own thread.
  "voxl-stripes2": voxlWith("voxl, 2 stripes", ["--stripes=2"]),
  "voxl-stripes4": voxlWith("voxl, 4 stripes", ["--stripes=4"]),
  // One encode for every viewer, no encoding ladder: the baseline for two
  // viewers on different links (bench/run --pair).
  "voxl-1encode": voxlWith("voxl, one encode", ["--max-encodes=1"]),
  // TCP's congestion control as most systems have it by default (voxl asks
  // for BBR; the peers run on the machine's default, see
  // /proc/sys/net/ipv4/tcp_congestion_control).
  "voxl-cubic": voxlWith("voxl, CUBIC", ["--tcp-congestion=cubic"]),
  // The frame rate traded against sharpness on a slow link, chosen rather
  // than judged from the content (voxl's default, --motion=auto).
  "voxl-smooth": voxlWith("voxl, smooth", ["--motion=smooth"]),
  "voxl-sharp": voxlWith("voxl, sharp", ["--motion=sharp"]),
  x11vnc: {
    label: "x11vnc",
    kind: "vnc",
    start: (procs, o) => startX11vnc(procs, o, []),
  },
  "x11vnc-noxdamage": {
    label: "x11vnc, no XDamage",
    kind: "vnc",
    start: (procs, o) => startX11vnc(procs, o, ["-noxdamage"]),
  },
  x0vncserver: x0vncserver(),
  // The same server watched through TigerVNC's own viewer on a screen of
  // its own (native_viewer.mjs): what a TigerVNC user sees.
  "x0vncserver-viewer": { ...x0vncserver(), label: "TigerVNC x0vncserver, vncviewer on screen", viewer: "tigervnc" },
  // The encoder floor: x11grab -> x264 ultrafast/zerolatency -> a pipe into
  // the client's decoder. No viewer protocol, no network, no rate control.
  ffmpeg: {
    label: "ffmpeg x11grab + x264 (floor)",
    kind: "pipe",
    lanOnly: true,
    async start(procs, { display, width, height }) {
      const p = procs.start("ffmpeg", "ffmpeg", [
        "-nostdin", "-loglevel", "error", "-f", "x11grab", "-framerate", "60", "-video_size", `${width}x${height}`,
        "-i", display, "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
        "-x264-params", "aud=1", "-flush_packets", "1", "-f", "h264", "-",
      ], { keepStdout: true });
      return { pids: [p.pid], port: 0, process: p, stdout: p.stdout };
    },
  },
};

async function startX11vnc(procs, { display, host = "127.0.0.1" }, extra) {
  const port = await freePort();
  const p = procs.start("x11vnc", "x11vnc", [
    "-display", display, "-rfbport", String(port), ...(host === "127.0.0.1" ? ["-localhost"] : ["-listen", host]),
    "-nopw", "-shared", "-forever", "-quiet", ...extra,
  ]);
  await waitPort(port, 30000, p, host);
  return { pids: [p.pid], port, process: p };
}

function x0vncserver() {
  return {
    label: "TigerVNC x0vncserver",
    kind: "vnc",
    async start(procs, { display, host = "127.0.0.1" }) {
      const port = await freePort();
      // The binary itself: /usr/bin/x0vncserver is a Perl wrapper that runs it
      // as a child, whose CPU time the wrapper's pid would not show.
      const p = procs.start("x0vncserver", "X0tigervnc", [
        "-display", display, "-rfbport", String(port), "-SecurityTypes", "None",
        ...(host === "127.0.0.1" ? ["-localhost=1"] : ["-interface", host]),
      ]);
      await waitPort(port, 30000, p, host);
      return { pids: [p.pid], port, process: p };
    },
  };
}
