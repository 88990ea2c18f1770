// Opens voxl's page in headless Chromium and reports what a viewer sees:
// time from navigation to the first decoded frame, then over a window the
// decoded frame rate and the capture -> decoded latency (p50, p99), read
// from the page's test hook (window.voxl).
//
//   node bench/browser/measure.mjs http://127.0.0.1:6901/ [seconds=20]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchHeadlessChromium } from "./headless_chromium.mjs";

const [url, secondsArg] = process.argv.slice(2);
if (!url) {
  console.error("usage: node bench/browser/measure.mjs URL [seconds]");
  process.exit(2);
}
const seconds = Number(secondsArg ?? 20);
const home = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-measure-"));
process.env.HOME = home;
const ctx = await launchHeadlessChromium(home, { width: 2000, height: 1200 });
try {
  const page = await ctx.newPage();
  const t0 = performance.now();
  await page.goto(url);
  await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0, null, { timeout: 60_000 });
  const firstFrameMs = performance.now() - t0;
  const before = await page.evaluate(() => ({ s: window.voxl.stats(), n: window.voxl.latencies().length }));
  await page.waitForTimeout(seconds * 1000);
  const after = await page.evaluate(() => ({ s: window.voxl.stats(), l: window.voxl.latencies() }));
  const lat = after.l.slice(before.n).sort((a, b) => a - b);
  const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : NaN);
  const result = {
    first_frame_ms: Math.round(firstFrameMs),
    seconds,
    fps: (after.s.framesDecoded - before.s.framesDecoded) / seconds,
    latency_p50_ms: q(0.5),
    latency_p99_ms: q(0.99),
    size: `${after.s.width}x${after.s.height}`,
    decode_ms: after.s.decodeMs,
    dropped: after.s.droppedFrames,
    decoder_errors: after.s.errors,
  };
  console.log(JSON.stringify(result));
} finally {
  await ctx.close();
  fs.rmSync(home, { recursive: true, force: true });
}
