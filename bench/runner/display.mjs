// The desktop a cell is measured on: a private Xvfb (with -shmem, whose
// framebuffer voxl reads in place: Pixel sources in docs/architecture.md)
// and one workload drawing the frame marker on it.

import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { removeSegment } from "./processes.mjs";

const here = path.dirname(new URL(import.meta.url).pathname);

export async function startXvfb(procs, width, height) {
  const xvfb = procs.start("Xvfb", "Xvfb", [
    "-displayfd", "3", "-screen", "0", `${width}x${height}x24`, "-shmem", "-nolisten", "tcp", "-noreset",
  ], { stdio: ["ignore", "pipe", "pipe", "pipe"] });
  const display = await new Promise((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("Xvfb did not report its display in 30 s")), 30000);
    xvfb.stdio[3].on("data", (d) => {
      out += d.toString();
      if (out.includes("\n")) {
        clearTimeout(t);
        resolve(`:${out.trim()}`);
      }
    });
    xvfb.on("exit", () => reject(new Error(`Xvfb exited: ${xvfb.stderrText}`)));
  });
  procs.onCleanup(async () => {
    await procs.stop(xvfb);
    // Xvfb leaves its -shmem framebuffer segment behind when it is stopped.
    const m = xvfb.stderrText.match(/shmid (\d+)/);
    if (m) removeSegment(m[1]);
  });
  return { display, pid: xvfb.pid, process: xvfb };
}

// Starts the workload on `display`, appending draw times to `logPath`.
// Resolves once the first marker has been drawn, to the X workload's
// process (SIGUSR1 holds its picture still, SIGUSR2 moves it again), or null
// for the scroll page.
export async function startWorkload(procs, { name, display, logPath, cell, width, height, buildDir, tmp }) {
  const env = { ...process.env, DISPLAY: display };
  let workload = null;
  if (name === "scroll") {
    await startScrollPage(procs, { env, logPath, cell, width, height, tmp });
  } else {
    const mode = ["animation", "fullscreen", "texture"].includes(name) ? name : "idle";
    workload = procs.start(`workload ${name}`, path.join(buildDir, "voxl-bench-workload"),
                           ["--mode", mode, "--log", logPath, "--cell", String(cell)], { env });
    procs.onCleanup(() => procs.stop(workload));
  }
  const deadline = Date.now() + 60000;
  while (!(fs.existsSync(logPath) && fs.statSync(logPath).size > 0)) {
    if (Date.now() > deadline) throw new Error(`workload ${name} drew no marker in 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return workload;
}

// Chromium, not headless, full screen on the Xvfb, showing the scroll page
// served from here; the page posts its draw log back.
async function startScrollPage(procs, { env, logPath, cell, width, height, tmp }) {
  const page = fs.readFileSync(path.join(here, "../workloads/scroll_page.html"));
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === "/log") {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        fs.appendFileSync(logPath, body);
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  procs.onCleanup(() => new Promise((r) => { server.closeAllConnections(); server.close(r); }));
  const home = fs.mkdtempSync(path.join(tmp, "chromium-"));
  const url = `http://127.0.0.1:${server.address().port}/?cell=${cell}`;
  const chromium = procs.start("chromium", process.env.VOXL_CHROMIUM ?? "/usr/bin/chromium", [
    "--no-sandbox", "--test-type", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-features=Translate,MediaRouter", "--noerrdialogs", "--password-store=basic",
    `--user-data-dir=${path.join(home, "profile")}`, "--kiosk", "--window-position=0,0",
    `--window-size=${width},${height}`, "--force-device-scale-factor=1", url,
  ], { env: { ...env, HOME: home } });
  procs.onCleanup(async () => {
    await procs.stop(chromium);
    fs.rmSync(home, { recursive: true, force: true });
  });
}
