// Run through bench/run.
// bench/run: voxl and the peers that run on this machine, measured side by
// side in one run. For every workload x link x system it starts the system
// fresh against the workload's display, connects the native client (through
// linkem on the slow links), and prints the FPS/latency table, the server
// CPU table, voxl's pipeline floor and JSON. Before the streamers, every
// moving workload also runs alone with voxl-bench-present watching the X
// server (bench/runner/present.mjs): the app's own drawn -> on-screen delay,
// which the floor includes.
//
//   bench/run [--size 1920x1080] [--seconds 20] [--warmup 3] [--quick | --smoke]
//             [--workloads idle,animation,fullscreen,scroll,texture] [--links lan,10/40,5/60,wifi,lte,lossy-long,drop]
//             [--systems voxl,voxl-wayland,x11vnc,x11vnc-noxdamage,x0vncserver,x0vncserver-viewer,ffmpeg] [--no-browser]
//             [--browsers chromium,firefox] [--browser-screen]
//             [--still 2] [--save-still DIR] [--pair LINK1+LINK2] [--build-dir build/release] [--json FILE] [--verbose]
//
// Links: lan, 10/40 and 5/60 (linkem: a rate cap and a delay, never a lost
// packet), and the lossy links wifi, lte, lossy-long and drop (ipem, as
// root: the viewer in a network namespace of its own, every packet through
// the profile's path; see bench/runner/ipem_link.mjs). On the lossy links a
// cell's result adds ipem's counts (lost, dropped at the queue) and, for
// drop, recovery_ms: how long after each rate step the latency took to be
// under 150 ms again (the cell needs --warmup + --seconds past 25 s), and
// rate_recovery_ms: until a second held 90 % of the frames drawn.
//
// --pair LINK1+LINK2 (e.g. lan+5/60): after a workload's cells, for each
// voxl system in --systems, two native viewers of one server at once, each on
// its own link (its own linkem unless lan), beside each viewer alone: three
// runs, the system started fresh for each. Both viewers measure the same
// warm-up and window; the first alone measures the still picture (the
// workload holds still once both windows are over). Printed as "Two viewers
// at once", in the JSON as `pairs`. Not for idle, which has no motion to share.
//
// Picture quality (native viewers, workloads drawn as a pure function of
// their marker counter: animation, fullscreen, texture): luma PSNR against
// the expected picture a few times a second, p50/p10; then --still seconds
// with the workload held still (SIGUSR1; SIGUSR2 moves it again before the
// next cell): the final PSNR in luma and RGB and the time from the last
// frame drawn until both are within 1 dB of it. --save-still DIR keeps, for
// every such cell, the viewer's last still picture and the expected one
// (WORKLOAD-LINK-SYSTEM-decoded.ppm, -expected.ppm) and, for voxl, a
// lossless /screenshot taken near the end of the still phase (-screenshot.png):
// the X server's picture, to tell which of the three is off.
//
// The browser column: voxl's web client (bench/runner/browser_client.mjs),
// in each of --browsers (default chromium; firefox is Firefox ESR, a column
// of its own beside Chromium's; not on the lossy links), headless.
// --browser-screen: each browser instead headful, full screen on an Xvfb of
// its own the desktop's size, with voxl-bench-present watching that screen
// for the marker: frames as the compositor showed them (screen_fps, its
// worst second) and drawn -> on the viewer's screen (screen_latency), for a
// canvas as for a video element, nothing read back in the page. Where the
// browser's smallest window is wider than the desktop (--smoke's), the page
// centres the picture and the probe reads it there (its --x/--y).
// The system voxl-wayland is voxl on a Wayland desktop, its own headless
// sway (--wayland), with the workload's Wayland twin drawing the same
// pictures (not scroll); its server CPU counts sway where the others count
// Xvfb.
// The system x0vncserver-viewer is TigerVNC's own viewer measured the same
// way, on its screen (bench/runner/native_viewer.mjs): fps and drawn -> on
// that screen, no picture quality.
//
// --quick: a short subset (4 s a cell). --smoke: a tiny desktop, seconds a
// cell, LAN only, voxl (on X11 and on Wayland) and x11vnc; exits non-zero
// unless every column of every table was produced (it checks no timing).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Processes, lines } from "./processes.mjs";
import { sample, coresBetween } from "./cpu.mjs";
import { startXvfb, startWorkload } from "./display.mjs";
import { systems } from "./systems.mjs";
import { runBrowserClient } from "./browser_client.mjs";
import { runNativeViewer } from "./native_viewer.mjs";
import { runPresentProbe, presentMaxSeconds, startPresentProbe } from "./present.mjs";
import { browserNames } from "./browsers.mjs";
import { browserColumns, browserOfColumn, markdown, median, pairTable } from "./results.mjs";
import { traceTable } from "./trace.mjs";
import { ipemProfiles, ipemSchedules, rateRecoveryAfterSteps, recoveryAfterSteps, startIpem } from "./ipem_link.mjs";

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

const allLinks = {
  lan: { name: "lan", label: "LAN" },
  "10/40": { name: "10/40", label: "10 Mbps / 40 ms RTT", mbps: 10, rtt: 40 },
  "5/60": { name: "5/60", label: "5 Mbps / 60 ms RTT", mbps: 5, rtt: 60 },
  // Lossy links through ipem (root only): the viewer, native or the browser, in a namespace of its own.
  ...Object.fromEntries(Object.entries(ipemProfiles).map(([name, label]) => [name, { name, label, ipem: name }])),
};

function parseArgs(argv) {
  const o = {
    size: "1920x1080", seconds: 20, warmup: 3, cell: 16, buildDir: path.join(repo, "build/release"),
    workloads: ["idle", "animation", "fullscreen", "scroll", "texture"], links: ["lan", "10/40", "5/60"],
    systems: ["voxl", "x11vnc", "x11vnc-noxdamage", "x0vncserver", "ffmpeg"], browser: ["animation", "fullscreen", "scroll"],
    json: null, verbose: false, check: false, still: 2, saveStill: null, pair: null, browsers: ["chromium"], browserScreen: false,
  };
  const list = (v) => v.split(",").filter(Boolean);
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--quick") Object.assign(o, { seconds: 4, warmup: 1.5, workloads: ["idle", "animation", "scroll"],
                                            links: ["lan", "5/60"], systems: ["voxl", "x11vnc", "ffmpeg"], browser: ["animation"] });
    else if (a === "--smoke") Object.assign(o, { size: "480x272", cell: 8, seconds: 2, warmup: 1.5, still: 1, links: ["lan"],
                                                 workloads: ["idle", "animation", "fullscreen", "scroll", "texture"],
                                                 systems: ["voxl", "voxl-wayland", "x11vnc"], browser: ["animation"], check: true });
    else if (a === "--size") o.size = next();
    else if (a === "--seconds") o.seconds = Number(next());
    else if (a === "--warmup") o.warmup = Number(next());
    else if (a === "--still") o.still = Number(next());
    else if (a === "--save-still") o.saveStill = path.resolve(next());
    else if (a === "--cell") o.cell = Number(next());
    else if (a === "--pair") o.pair = next().split("+");
    else if (a === "--workloads") o.workloads = list(next());
    else if (a === "--links") o.links = list(next());
    else if (a === "--systems") o.systems = list(next());
    else if (a === "--no-browser") o.browser = [];
    else if (a === "--browsers") o.browsers = list(next());
    else if (a === "--browser-screen") o.browserScreen = true;
    else if (a === "--build-dir") o.buildDir = path.resolve(next());
    else if (a === "--json") o.json = next();
    else if (a === "--verbose") o.verbose = true;
    else throw new Error(`unknown argument ${a}`);
  }
  const m = o.size.match(/^(\d+)x(\d+)$/);
  if (!m) throw new Error(`--size wants WxH, got ${o.size}`);
  [o.width, o.height] = [Number(m[1]), Number(m[2])];
  for (const w of o.workloads) if (!["idle", "animation", "fullscreen", "scroll", "texture"].includes(w)) throw new Error(`unknown workload ${w}`);
  for (const l of o.links) if (!allLinks[l]) throw new Error(`unknown link ${l} (${Object.keys(allLinks).join(", ")})`);
  if (o.links.some((l) => allLinks[l].ipem)) {
    if (process.getuid() !== 0) throw new Error("the ipem links (wifi, lte, lossy-long, drop) need root: network namespaces");
    if (!fs.existsSync(path.join(o.buildDir, "ipem"))) throw new Error(`${path.join(o.buildDir, "ipem")} is missing: build it first`);
  }
  for (const s of o.systems) if (!systems[s]) throw new Error(`unknown system ${s}`);
  for (const b of o.browsers) if (!browserNames[b]) throw new Error(`unknown browser ${b} (${Object.keys(browserNames).join(", ")})`);
  if (o.browsers.includes("firefox") && o.links.some((l) => allLinks[l].ipem))
    throw new Error("--browsers firefox does not run on the lossy links (wifi, lte, lossy-long, drop)");
  if (o.systems.some((s) => systems[s].viewer) && o.links.some((l) => allLinks[l].ipem))
    throw new Error("a native viewer on screen (x0vncserver-viewer) does not run on the lossy links (wifi, lte, lossy-long, drop)");
  if (o.pair && (o.pair.length !== 2 || !o.pair.every((l) => allLinks[l] && !allLinks[l].ipem)))
    throw new Error(`--pair wants two links joined by +, of lan, 10/40, 5/60, got ${o.pair.join("+")}`);
  if (o.pair && !o.systems.some((s) => systems[s].kind === "voxl")) throw new Error("--pair runs voxl systems: give one in --systems");
  if (!(o.seconds > 0) || !(o.warmup >= 0) || !(o.still >= 0)) throw new Error("--seconds must be > 0, --warmup and --still >= 0");
  const wayland = o.systems.some((s) => systems[s].desktop === "wayland") ? ["voxl-bench-wayland-workload"] : [];
  for (const exe of ["voxl", "voxl-bench-client", "voxl-bench-workload", "voxl-bench-present", "linkem", ...wayland])
    if (!fs.existsSync(path.join(o.buildDir, exe))) throw new Error(`${path.join(o.buildDir, exe)} is missing: build it first`);
  return o;
}

const log = (msg) => console.error(`[bench] ${msg}`);
// The workloads whose picture is a pure function of the marker counter.
export const predictable = ["animation", "fullscreen", "texture"];
const live = new Set();  // every Processes in use, for an interrupted run

// Bearer credentials for a voxl started with a token (off loopback).
const authorization = (token) => (token ? { Authorization: `Bearer ${token}` } : {});

async function pollVoxlStats(host, port, token, stop) {
  const samples = [];
  const ladders = [];  // the encoding ladder as /stats said it, every sample
  while (!stop.done) {
    try {
      const r = await fetch(`http://${host}:${port}/stats`, { headers: authorization(token), signal: AbortSignal.timeout(2000) });
      const s = await r.json();
      if (s.stage_ms) samples.push(s.stage_ms);
      if (s.ladder) ladders.push(s.ladder);
    } catch { /* a busy server misses a sample */ }
    await new Promise((r) => setTimeout(r, 2000));
  }
  const stage = (k) => median(samples.map((s) => s[k]));
  return samples.length ? { capture: stage("capture"), convert: stage("convert"), encode: stage("encode"), to_loop: stage("to_loop"),
                            ...(ladders.length ? { ladder: ladders } : {}) } : null;
}

// voxl's lossless picture of the screen `afterMs` from now, written to
// `file`; resolves to its X-Voxl-Seq and timing, or the error.
async function saveScreenshot(host, port, token, file, afterMs) {
  await new Promise((r) => setTimeout(r, afterMs));
  try {
    const r = await fetch(`http://${host}:${port}/screenshot`, { headers: authorization(token), signal: AbortSignal.timeout(10000) });
    fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    return { file, seq: r.headers.get("x-voxl-seq"), timing: r.headers.get("x-voxl-timing") };
  } catch (e) {
    return { file, error: e.message };
  }
}

// The port a viewer on `link` connects to: the server's own on the LAN, else
// a linkem of the viewer's own in front of it.
async function viewerPort(procs, o, serverPort, link) {
  if (!link.mbps) return serverPort;
  const l = procs.start("linkem", path.join(o.buildDir, "linkem"), [
    "--listen", "127.0.0.1:0", "--to", `127.0.0.1:${serverPort}`, "--mbps", String(link.mbps), "--rtt-ms", String(link.rtt)], { keepStdout: true });
  return Number((await procs.waitLine(l, /^listening on (\d+)/))[1]);
}

// One start of `systemName` with a viewer on each of `links`, all at once
// (the browser viewer: one link). The first viewer leads: it alone measures
// the still picture and holds the workload still. Server CPU and voxl's
// stage times cover the window every viewer is in, and are added to every
// viewer's result. Resolves to the results in the order of `links`; when
// anything failed, to { ok: false, error } for each. `browser` (chromium,
// firefox) makes the viewer voxl's page in that browser; `saveTag` ends the
// --save-still names.
async function runCell(o, display, workload, systemName, links, { browser = null, saveTag = "" } = {}) {
  const procs = new Processes({ verbose: o.verbose });
  live.add(procs);
  const system = systems[systemName];
  let held = false;  // the workload holds still until this cell is over
  let over = false;  // no holding still after that
  let ipem = null;  // the lossy link of a cell on one (a single viewer)
  try {
    if (links[0].ipem) ipem = await startIpem(procs, o.buildDir, links[0].ipem);
    const host = ipem?.serverAddress ?? "127.0.0.1";
    const srv = await system.start(procs, { display: display.display, buildDir: o.buildDir, width: o.width, height: o.height, host,
                                            workload, cell: o.cell });
    // A system with a desktop of its own (voxl on Wayland): its compositor and
    // draw log instead of the cell's X display's.
    if (srv.desktop) display = { ...display, ...srv.desktop };
    const ports = [];
    for (const link of links) ports.push(await viewerPort(procs, o, srv.port, link));
    const pids = [display.pid, ...srv.pids].filter((pid) => pid != null);
    const stop = { done: false };
    let cpu0 = null;
    let statsPromise = null;
    let waiting = links.length;  // viewers whose window has not opened yet
    const onWindow = () => {
      if (--waiting > 0) return;  // the shared window opens with the last viewer's
      cpu0 = sample(pids);
      if (system.kind === "voxl") statsPromise = pollVoxlStats(host, srv.port, srv.token, stop);
    };
    let results;
    let cpu1 = null;
    let shot = null;
    if (browser) {
      // Through ipem the page comes from the server's address, off loopback:
      // the token's address signs the browser in.
      const url = ipem ? `http://${host}:${srv.port}/${srv.token ? `?token=${encodeURIComponent(srv.token)}` : ""}`
                       : `http://127.0.0.1:${ports[0]}/`;
      const wrap = ipem ? (exe) => ipem.viewerWrapper(display.tmp, exe) : undefined;
      results = [await runBrowserClient({ url, logPath: display.logPath, cell: o.cell, warmupS: o.warmup, seconds: o.seconds,
                                          onWindow, tmp: display.tmp, wrap, kind: browser,
                                          screen: o.browserScreen ? await browserScreen(procs, o, display) : null })];
    } else if (system.viewer) {
      results = [await runNativeViewer(procs, { viewer: system.viewer, host: "127.0.0.1", port: ports[0], warmupS: o.warmup,
                                                seconds: o.seconds, onWindow, screen: await browserScreen(procs, o, display) })];
    } else {
      const opened = [];  // performance.now() when each viewer's window opened, by viewer
      const runClient = async (link, port, i) => {
        const lead = i === 0;
        const args = ["--log", display.logPath, "--warmup-s", String(o.warmup), "--seconds", String(o.seconds), "--cell", String(o.cell)];
        const still = lead && predictable.includes(workload) && display.workload ? o.still : 0;
        if (predictable.includes(workload)) args.push("--workload", workload, "--size", o.size, "--still-s", String(still));
        const savePrefix = o.saveStill && still > 0
          ? path.join(o.saveStill, `${workload}-${link.name.replace("/", "_")}-${systemName}${saveTag}`) : null;
        if (savePrefix) args.push("--save-still", savePrefix);
        if (system.kind === "voxl") args.push("--voxl", String(port), "--voxl-address", host, ...(srv.token ? ["--voxl-token", srv.token] : []));
        else if (system.kind === "vnc") args.push("--vnc", `${host}:${port}`);
        else args.push("--h264-stdin");
        const [cmd, cmdArgs] = ipem ? ipem.inViewer(path.join(o.buildDir, "voxl-bench-client"), args)
                                    : [path.join(o.buildDir, "voxl-bench-client"), args];
        const client = procs.start("client", cmd, cmdArgs, { stdio: [srv.stdout ?? "ignore", "pipe", "pipe"], keepStdout: true });
        const next = lines(client);
        for (;;) {
          const line = await next((o.warmup + o.seconds + o.still + 90) * 1000);
          if (line === null) {
            const which = links.length > 1 ? `the client of viewer ${i + 1} (${link.label})` : "the client";
            throw new Error(`${which} exited without a result: ${client.stderrText.slice(-1000)}`);
          }
          if (line === "window") {
            opened[i] = performance.now();
            onWindow();
          } else if (line === "still") {
            // The measured window is over: its CPU and stage times end here.
            cpu1 = sample(pids);
            stop.done = true;
            // The other viewers' windows opened a little later (their
            // handshake went over a slow link): the workload moves on
            // until theirs are over too.
            const wait = Math.max(0, ...opened.filter((_, j) => j > 0).map((t) => t + o.seconds * 1000 - performance.now()));
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
            if (!over && display.workload) held = display.workload.kill("SIGUSR1");
            if (savePrefix && system.kind === "voxl")
              shot = saveScreenshot(host, srv.port, srv.token, `${savePrefix}-screenshot.png`, Math.max(0, o.still * 1000 - 400 - wait));
          } else if (line.startsWith("{")) {
            return JSON.parse(line);
          }
        }
      };
      results = await Promise.all(links.map((link, i) => runClient(link, ports[i], i)));
    }
    cpu1 ??= sample(pids);
    stop.done = true;
    if (shot) results[0].still_screenshot = await shot;
    const cores = cpu0 ? Math.round(coresBetween(cpu0, cpu1) * 100) / 100 : null;
    const stages = statsPromise ? await statsPromise : undefined;
    for (const result of results) {
      if (cpu0) result.cpu_cores = cores;
      if (statsPromise) result.stage_ms = stages;
    }
    if (ipem) {
      results[0].ipem = await ipem.stop();
      const steps = ipemSchedules[links[0].ipem];
      if (steps) {
        results[0].recovery_ms = recoveryAfterSteps(results[0].latency_timeline, steps, ipem.startedUnixMs);
        results[0].rate_recovery_ms = rateRecoveryAfterSteps(results[0].latency_timeline, steps, ipem.startedUnixMs,
                                                             results[0].drawn_fps);
      }
    }
    return results;
  } catch (e) {
    return links.map(() => ({ ok: false, error: e.message }));
  } finally {
    over = true;
    if (held) display.workload.kill("SIGUSR2");
    await procs.stopAll();
    live.delete(procs);
  }
}

// --browser-screen: the browser's own X server, the desktop's size (the
// page full screen on it shows the picture 1:1 from the corner, unless the
// browser's smallest window is wider), and the present probe to watch it
// with, drawn times from the workload's log.
async function browserScreen(procs, o, display) {
  const x = await startXvfb(procs, o.width, o.height);
  return {
    display: x.display, pid: x.pid, width: o.width, height: o.height,
    startProbe: (seconds, at) => startPresentProbe(procs, o.buildDir, { display: x.display, logPath: display.logPath, warmupS: 0,
                                                                        seconds, cell: o.cell, ...at }),
  };
}

// A --pair cell: the viewer on each link alone, then both at once, the
// system started fresh for each run. Resolves to { alone: [first, second],
// together: [first, second] }.
async function runPair(o, display, workload, systemName, label) {
  const links = o.pair.map((l) => allLinks[l]);
  const run = async (viewers, what, saveTag) => {
    log(`${workload} / ${what} / ${label}`);
    const results = await runCell(o, display, workload, systemName, viewers, { saveTag });
    for (const result of results) if (o.verbose || !result.ok) log(JSON.stringify(result));
    return results;
  };
  const alone = [];
  for (const link of links) alone.push((await run([link], `${link.label} alone`, "-pair-alone"))[0]);
  const together = await run(links, `${links.map((l) => l.label).join(" + ")} together`, "-pair-together");
  return { alone, together };
}

// --smoke: every figure each table wants that the run did not produce.
function missingFigures(o, { cells, present, pairs, floor, columns }) {
  const missing = [];
  for (const w of o.workloads.filter((w) => w !== "idle"))
    for (const k of ["frames", "present_p50_ms", "present_p99_ms"])
      if (present[w]?.[k] == null) missing.push(`${w}/app present: ${k}${present[w]?.error ? ` (${present[w].error})` : ""}`);
  for (const w of o.workloads)
    for (const s of columns) {
      if (browserOfColumn(s) && !o.browser.includes(w)) continue;
      if (systems[s]?.workloads && !systems[s].workloads.includes(w)) continue;
      for (const l of w === "idle" ? ["lan"] : o.links) {
        if (l !== "lan" && systems[s]?.lanOnly) continue;
        const r = cells.find((c) => c.workload === w && c.link === l && c.system === s)?.result;
        const need = ["cpu_cores"];
        if (w !== "idle") need.push("fps", "fps_worst_second", "latency_p50_ms", "latency_p99_ms");
        // The latency also says the counters read were the workload's own.
        if (w !== "idle" && browserOfColumn(s) && o.browserScreen)
          need.push("screen_fps", "screen_fps_worst_second", "screen_latency_p50_ms");
        if (w !== "idle" && s === "voxl" && l === "lan") need.push("stage_ms", "decode_p50_ms");
        if (w !== "idle" && s === "voxl" && l === "lan" && floor.find((f) => f.workload === w)?.floor_ms == null)
          missing.push(`${w}/lan/voxl: floor with app present`);
        if (predictable.includes(w) && !browserOfColumn(s))
          need.push("psnr_p50_db", "psnr_p10_db", "still_psnr_db", "still_rgb_psnr_db");
        for (const k of need) {
          const why = r?.error ?? (k.startsWith("screen_") ? r?.screen_error : null);
          if (r?.[k] == null) missing.push(`${w}/${l}/${s}: ${k}${why ? ` (${why})` : ""}`);
        }
        // Null when the viewer never showed the last frame; the field is there.
        if (predictable.includes(w) && !browserOfColumn(s) && r && !("still_settle_ms" in r))
          missing.push(`${w}/${l}/${s}: still_settle_ms`);
      }
    }
  for (const p of pairs)
    for (const run of ["alone", "together"])
      p[run].forEach((r, i) => {
        const need = ["fps", "fps_worst_second", "latency_p50_ms", "latency_p99_ms", "kbps", "cpu_cores"];
        if (predictable.includes(p.workload)) need.push("psnr_p50_db");
        for (const k of need)
          if (r?.[k] == null) missing.push(`${p.workload}/${p.links[i]} ${run}/${p.system}: ${k}${r?.error ? ` (${r.error})` : ""}`);
      });
  return missing;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.saveStill) fs.mkdirSync(o.saveStill, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-bench-"));
  const stopEverything = async () => {
    await Promise.all([...live].map((p) => p.stopAll()));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  for (const sig of ["SIGINT", "SIGTERM"])
    process.on(sig, async () => {
      log(`${sig}: stopping everything`);
      await stopEverything();
      process.exit(130);
    });

  const columns = [...o.systems];
  if (o.browser.length && o.systems.includes("voxl")) columns.splice(1, 0, ...o.browsers.map((b) => browserColumns[b]));
  const labels = Object.fromEntries(Object.entries(systems).map(([k, s]) => [k, s.label]));
  // Chromium alone keeps the column's old name.
  for (const b of o.browsers)
    labels[browserColumns[b]] = o.browsers.length === 1 && b === "chromium" ? "voxl, browser" : `voxl, ${browserNames[b]}`;
  const workloadLabel = (w) => ({ idle: "Idle", animation: "Animation", fullscreen: "Full-screen animation", scroll: "Chromium scroll",
                                  texture: "Full-screen texture" })[w];
  const started = new Date();
  const loadBefore = os.loadavg()[0];
  const cells = [];
  const pairs = [];  // --pair: { workload, system, links, alone, together }
  const present = {};  // workload -> the present probe's result
  try {
    for (const workload of o.workloads) {
      const procs = new Processes({ verbose: o.verbose });
      live.add(procs);
      try {
        const x = await startXvfb(procs, o.width, o.height);
        const logPath = path.join(tmp, `${workload}.log`);
        const workloadProcess = await startWorkload(procs, { name: workload, display: x.display, logPath, cell: o.cell, width: o.width,
                                     height: o.height, buildDir: o.buildDir, tmp });
        const display = { ...x, logPath, tmp, workload: workloadProcess };
        if (workload !== "idle") {
          log(`${workload} / app present (no streamer)`);
          present[workload] = await runPresentProbe(o, display, live);
          if (o.verbose || !present[workload].ok) log(JSON.stringify(present[workload]));
        }
        for (const systemName of columns) {
          const browser = browserOfColumn(systemName);
          if (browser && !o.browser.includes(workload)) continue;
          const sys = systems[browser ? "voxl" : systemName];
          if (sys.workloads && !sys.workloads.includes(workload)) continue;
          for (const linkName of workload === "idle" ? ["lan"] : o.links) {
            if (linkName !== "lan" && sys.lanOnly) continue;
            const link = allLinks[linkName];
            log(`${workload} / ${link.label} / ${labels[systemName]}`);
            const [result] = await runCell(o, display, workload, browser ? "voxl" : systemName, [link], { browser });
            if (o.verbose || !result.ok) log(JSON.stringify(result));
            cells.push({ workload, link: linkName, system: systemName, result });
          }
        }
        if (o.pair && workload !== "idle")
          for (const systemName of o.systems.filter((s) => systems[s].kind === "voxl"))
            pairs.push({ workload, system: systemName, links: o.pair, ...await runPair(o, display, workload, systemName, labels[systemName]) });
      } finally {
        await procs.stopAll();
        live.delete(procs);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const links = o.links.map((l) => allLinks[l]);
  const { text: tables, floor } = markdown({ cells, present, workloads: o.workloads, links, systems: columns, labels,
                                            workloadLabel, size: o.size });
  const report = {
    date: started.toISOString(), size: o.size, seconds: o.seconds, warmup: o.warmup, cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model, load_before: loadBefore, load_after: os.loadavg()[0], command: `bench/run ${process.argv.slice(2).join(" ")}`.trim(), cells,
    present_seconds: Math.min(o.seconds, presentMaxSeconds), present, floor,
  };
  if (o.pair) report.pairs = pairs;
  console.log(`${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} cores (${os.cpus()[0]?.model}), ` +
              `${o.size}, ${o.seconds} s a cell after ${o.warmup} s warm-up, load average ${loadBefore.toFixed(1)} at start ` +
              `and ${os.loadavg()[0].toFixed(1)} at end\n`);
  console.log(tables);
  if (pairs.length) console.log(pairTable({ pairs, labels, workloadLabel, linkLabel: (l) => allLinks[l].label, size: o.size }));
  console.log(traceTable({ cells, workloadLabel, linkLabel: (l) => allLinks[l].label }));
  if (o.json) fs.writeFileSync(o.json, JSON.stringify(report, null, 2));
  else console.log(`\n${JSON.stringify(report)}`);

  if (o.check) {
    const missing = missingFigures(o, { cells, present, pairs, floor, columns });
    if (missing.length) {
      console.error(`bench: missing figures:\n  ${missing.join("\n  ")}`);
      process.exit(1);
    }
    console.error("bench: every column produced");
  }
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
