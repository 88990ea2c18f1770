// A download sharing a slow link with the picture: what the viewer's frame
// rate, latency and picture quality become while a large file downloads
// through the same emulated link (linkem --shared: one link each way for
// every connection, as a client's access link is), with voxl's transfer
// pacing on and off, beside the viewer alone.
//
//   node bench/files/share.mjs [--mbps 10] [--rtt 40] [--seconds 15] [--warmup 4]
//                              [--size 1280x720] [--workload animation] [--runs 1]
//                              [--pacing on,off] [--build-dir build/release]
//
// For each run and each pacing setting: voxl starts fresh on the workload's
// display behind a fresh linkem; the native client measures a window alone,
// then another while the download runs (started when the window starts,
// stopped when it ends). Prints one line per phase and a JSON summary.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Processes, freePort, waitPort, lines } from "../runner/processes.mjs";
import { startXvfb, startWorkload } from "../runner/display.mjs";

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

function parseArgs(argv) {
  const o = { mbps: 10, rtt: 40, seconds: 15, warmup: 4, size: "1280x720", workload: "animation", runs: 1,
              cell: 16, buildDir: path.join(repo, "build/release"), pacing: [true, false] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--mbps") o.mbps = Number(next());
    else if (a === "--rtt") o.rtt = Number(next());
    else if (a === "--seconds") o.seconds = Number(next());
    else if (a === "--warmup") o.warmup = Number(next());
    else if (a === "--size") o.size = next();
    else if (a === "--workload") o.workload = next();
    else if (a === "--runs") o.runs = Number(next());
    else if (a === "--build-dir") o.buildDir = path.resolve(next());
    else if (a === "--pacing") o.pacing = next().split(",").map((v) => v === "on");
    else throw new Error(`unknown option ${a}`);
  }
  [o.width, o.height] = o.size.split("x").map(Number);
  return o;
}

// Downloads `url` until stop() is called; counts the bytes.
function download(url) {
  const d = { bytes: 0, started: performance.now(), error: null };
  const req = http.get(url, (res) => {
    if (res.statusCode !== 200) d.error = `HTTP ${res.statusCode}`;
    res.on("data", (chunk) => (d.bytes += chunk.length));
    res.on("error", () => {});
  });
  req.on("error", (e) => {
    if (!d.stopped) d.error = e.message;
  });
  d.stop = () => {
    d.stopped = true;
    d.seconds = (performance.now() - d.started) / 1000;
    req.destroy();
  };
  return d;
}

async function measure(o, procs, display, port, withDownload) {
  const args = ["--log", display.logPath, "--warmup-s", String(o.warmup), "--seconds", String(o.seconds),
                "--cell", String(o.cell), "--voxl", String(port), "--workload", o.workload, "--size", o.size,
                "--still-s", "0"];
  const client = procs.start("client", path.join(o.buildDir, "voxl-bench-client"), args, { keepStdout: true });
  const next = lines(client);
  let dl = null;
  try {
    for (;;) {
      const line = await next((o.warmup + o.seconds + 90) * 1000);
      if (line === null) throw new Error(`the client exited without a result: ${client.stderrText.slice(-1000)}`);
      if (line === "window" && withDownload) dl = download(`http://127.0.0.1:${port}/files/download?path=big.bin`);
      else if (line.startsWith("{")) {
        const r = JSON.parse(line);
        if (dl) {
          dl.stop();
          if (dl.error) throw new Error(`the download failed: ${dl.error}`);
          r.download_mbps = Math.round(dl.bytes * 8 / 1e6 / dl.seconds * 100) / 100;
        }
        return r;
      }
    }
  } finally {
    dl?.stop();
    await procs.stop(client);
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  for (const exe of ["voxl", "voxl-bench-client", "voxl-bench-workload", "linkem"])
    if (!fs.existsSync(path.join(o.buildDir, exe))) throw new Error(`${exe} is not built in ${o.buildDir}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-share-"));
  const root = path.join(tmp, "root");
  fs.mkdirSync(root);
  // Larger than a window can move at the link's rate: the download never ends early.
  const big = Math.ceil(o.mbps * 1e6 / 8 * (o.seconds + 10) * 2);
  fs.writeFileSync(path.join(root, "big.bin"), Buffer.alloc(big, 7));
  const procs = new Processes();
  const results = [];
  try {
    const xvfb = await startXvfb(procs, o.width, o.height);
    const logPath = path.join(tmp, "draw.log");
    const workload = await startWorkload(procs, { name: o.workload, display: xvfb.display, logPath, cell: o.cell,
                                                  width: o.width, height: o.height, buildDir: o.buildDir, tmp });
    const display = { ...xvfb, logPath, workload };
    for (let run = 1; run <= o.runs; ++run) {
      for (const pace of o.pacing) {
        const vport = await freePort();
        const voxl = procs.start("voxl", path.join(o.buildDir, "voxl"), [
          `--display=${xvfb.display}`, "--addr=127.0.0.1", `--port=${vport}`, "--log-level=warn",
          `--files-root=${root}`, "--audio-enabled=false", `--pace-transfers=${pace}`]);
        await waitPort(vport, 30000, voxl);
        const l = procs.start("linkem", path.join(o.buildDir, "linkem"), [
          "--listen", "127.0.0.1:0", "--to", `127.0.0.1:${vport}`, "--mbps", String(o.mbps),
          "--rtt-ms", String(o.rtt), "--shared"], { keepStdout: true });
        const port = Number((await procs.waitLine(l, /^listening on (\d+)/))[1]);
        for (const phase of ["alone", "download"]) {
          const r = await measure(o, procs, display, port, phase === "download");
          const row = { run, pacing: pace ? "on" : "off", phase, fps: r.fps, fps_worst_second: r.fps_worst_second,
                        latency_p50_ms: r.latency_p50_ms, latency_p99_ms: r.latency_p99_ms,
                        psnr_p50_db: r.psnr_p50_db ?? null, video_kbps: r.kbps,
                        download_mbps: r.download_mbps ?? null };
          results.push(row);
          console.log(JSON.stringify(row));
        }
        await procs.stop(l);
        await procs.stop(voxl);
      }
    }
  } finally {
    await procs.stopAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ mbps: o.mbps, rtt_ms: o.rtt, size: o.size, workload: o.workload, results }));
}

main().catch((e) => {
  console.error(`share: ${e.message}`);
  process.exit(1);
});
