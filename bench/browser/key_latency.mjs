// Input-to-screen latency of a key press: from the keydown in the page to
// the first decoded frame drawn after it, when each press changes the
// screen. Starts voxl on a private Xvfb with voxl-e2e-input-probe --flash
// (which paints the screen black or white at each key press), presses a key
// N times with a pause between presses, and prints the median, p90, min and
// max in ms as JSON.
//
//   node bench/browser/key_latency.mjs [presses=50] [WxH=1280x720]
//   (VOXL_BINARY and VOXL_E2E_INPUT_PROBE default to build/release or build/dev)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { built, repo, start } from "./children.mjs";
import { launchHeadlessChromium } from "./headless_chromium.mjs";


const presses = Number(process.argv[2] ?? 50);
const size = process.argv[3] ?? "1280x720";
const voxlBin = process.env.VOXL_BINARY ?? built("voxl");
const probeBin = process.env.VOXL_E2E_INPUT_PROBE ?? built("tests/e2e/voxl-e2e-input-probe");
if (!voxlBin || !probeBin) {
  console.error("build voxl and voxl-e2e-input-probe first (cmake --build build/release)");
  process.exit(2);
}


const home = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-keylat-"));
process.env.HOME = home;
const voxl = await start(voxlBin, [`--xvfb=${size}`, "--addr=127.0.0.1", "--port=0"], /voxl is serving (\S+) \(display (:\d+)\)/);
const [, url, display] = voxl.match;
// voxl's private Xvfb admits only holders of its cookie; the probe needs it.
const cookie = /admitting only holders of its cookie \((\S+)\)/.exec(voxl.out);
if (cookie) process.env.XAUTHORITY = cookie[1];
const probe = await start(probeBin, [`--display=${display}`, "--flash"], /^ready$/m, { stdin: "pipe" });

const ctx = await launchHeadlessChromium(home, { width: 1600, height: 1000 });
try {
  // Every key press, timed as the page sees it.
  await ctx.addInitScript(() => {
    const keys = [];
    window.addEventListener("keydown", () => keys.push(performance.now()), true);
    Object.defineProperty(window, "__keylat", { value: { draws: [], keys } });
  });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0 && window.voxl.interaction()?.input, null, { timeout: 60_000 });
  // Every picture the page shows, timed when shown: a video element tells of
  // each frame it presents; a canvas (drawn in a worker or not) is watched
  // at every animation frame for a new drawn frame.
  await page.evaluate(() => {
    const { draws } = window.__keylat;
    const screen = document.getElementById("screen");
    if (screen instanceof HTMLVideoElement && screen.requestVideoFrameCallback) {
      const onFrame = () => {
        draws.push(performance.now());
        screen.requestVideoFrameCallback(onFrame);
      };
      screen.requestVideoFrameCallback(onFrame);
      return;
    }
    let drawn = window.voxl.stats().framesDrawn;
    const tick = () => {
      const n = window.voxl.stats().framesDrawn;
      if (n !== drawn) draws.push(performance.now());
      drawn = n;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const results = [];
  for (let i = 0; i < presses; i++) {
    // Let the screen settle so the next drawn frame is the press's.
    await page.waitForTimeout(150);
    await page.keyboard.press("a");
    const ms = await page
      .waitForFunction(
        (i) => {
          const { draws, keys } = window.__keylat;
          const t = keys[i];
          const d = t === undefined ? undefined : draws.find((x) => x > t);
          return d === undefined ? null : d - t;
        },
        i,
        { timeout: 10_000, polling: 5 },
      )
      .then((h) => h.jsonValue());
    results.push(ms);
  }
  const sorted = [...results].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  console.log(JSON.stringify({
    presses,
    size,
    median_ms: Math.round(((sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2) * 10) / 10,
    p90_ms: Math.round(q(0.9) * 10) / 10,
    min_ms: Math.round(sorted[0] * 10) / 10,
    max_ms: Math.round(sorted[sorted.length - 1] * 10) / 10,
  }));
} finally {
  await ctx.close();
  probe.child.stdin.end();
  voxl.child.kill("SIGTERM");
  await new Promise((r) => voxl.child.once("exit", r));
  fs.rmSync(home, { recursive: true, force: true });
}
