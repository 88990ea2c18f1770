// The streamers compared, each started fresh for a cell against a display.
// start() resolves to { pids, port, kind } once the server accepts
// connections on `host` (127.0.0.1, or the address ipem gives the server's
// side); kind says how the native client reads it.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { descendantsNamed } from "./cpu.mjs";
import { freePort, waitPort } from "./processes.mjs";

// Extra flags for an A/B of a setting, e.g. VOXL_BENCH_VOXL_ARGS="--paintover-444=false".
const extraVoxlArgs = () => (process.env.VOXL_BENCH_VOXL_ARGS ?? "").split(/\s+/).filter(Boolean);

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
        ...(token ? [`--auth-token=${token}`] : []), ...extraVoxlArgs(),
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
  // voxl on a Wayland desktop: its own headless sway with the workload
  // drawn by a Wayland program of the same pictures.
  "voxl-wayland": voxlOnWayland(),
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

// voxl --wayland: headless sway of the run's size, the workload's Wayland
// twin (voxl-bench-wayland-workload) in it, writing a draw log of its own.
// The X display of the cell goes unused. Resolves also to `desktop`: the
// compositor's pid (its CPU counts as Xvfb's does), that log, and the
// workload to hold still.
function voxlOnWayland() {
  return {
    label: "voxl, Wayland (headless sway)",
    kind: "voxl",
    desktop: "wayland",
    workloads: ["idle", "animation", "fullscreen", "texture"],
    async start(procs, { buildDir, width, height, host = "127.0.0.1", workload, cell }) {
      // When the run is root, sway and the workload run as nobody: the log's
      // folder is theirs to write in.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-bench-wayland-"));
      fs.chmodSync(dir, 0o777);
      procs.onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
      const logPath = path.join(dir, "draws.log");
      const port = await freePort();
      const token = host === "127.0.0.1" ? null : `bench-${process.pid}-${port}-token`;
      const draw = [path.join(buildDir, "voxl-bench-wayland-workload"), "--mode", workload, "--log", logPath, "--cell", String(cell)];
      const p = procs.start("voxl", path.join(buildDir, "voxl"), [
        `--wayland=${width}x${height}`, `--exec=${draw.join(" ")}`, `--addr=${host}`, `--port=${port}`, "--log-level=warn",
        ...(token ? [`--auth-token=${token}`] : []), ...extraVoxlArgs(),
      ]);
      await waitPort(port, 30000, p, host);
      const deadline = Date.now() + 60000;
      while (!(fs.existsSync(logPath) && fs.statSync(logPath).size > 0)) {
        if (Date.now() > deadline) throw new Error(`the Wayland workload drew no marker in 60 s: ${p.stderrText.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // A headless output has no cursor plane: sway draws the pointer into
      // the picture. Its tip to the last pixel, out of the moving area.
      await fetch(`http://${host}:${port}/input`, {
        method: "POST", body: JSON.stringify({ type: "move", x: width - 1, y: height - 1 }),
        headers: { "content-type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      const [sway] = descendantsNamed(p.pid, "sway");
      // Held still and moved again by signal, as the X11 workload is (its
      // command name is cut to 15 characters).
      const [drawer] = descendantsNamed(p.pid, "voxl-bench-wayl");
      const workloadHandle = drawer ? { kill: (signal) => { try { process.kill(drawer, signal); return true; } catch { return false; } } } : null;
      return { pids: [p.pid], port, process: p, token, desktop: { pid: sway ?? null, logPath, workload: workloadHandle } };
    },
  };
}
