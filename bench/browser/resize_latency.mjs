// Time to sharp after a window resize, with dynamic resolution: from the
// page's viewport changing size (its "resize" event) to the first frame at
// the new desktop size shown 1:1 (decoded, presented by the video element
// or drawn on the canvas, and laid out at one desktop pixel per device
// pixel). Starts voxl --enable-resize on a private Xvfb, opens the page in
// headless Chromium, resizes the viewport N times alternating between a few
// sizes, and prints p50, p90, min and max in ms as JSON, with its parts:
// until the page's request went out (its 300 ms debounce), until the server's
// "video" message of the new size arrived, until its frame was shown.
//
// Each resize comes after the window has kept its size for gap_ms, as a
// user's maximise or a phone's turn does; gap 0 resizes again as soon as the
// last one is sharp, a slow drag, where the page's debounce and the server's
// 250 ms between resizes take their share.
//
//   node bench/browser/resize_latency.mjs [resizes=20] [sizes=1280x720,1024x576,1600x900,1152x648] [gap_ms=1000]
//   (VOXL_BINARY defaults to build/release/voxl, else build/dev/voxl)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { built, repo, start } from "./children.mjs";
import { launchHeadlessChromium } from "./headless_chromium.mjs";


const resizes = Number(process.argv[2] ?? 20);
const sizes = (process.argv[3] ?? "1280x720,1024x576,1600x900,1152x648").split(",").map((s) => {
  const [width, height] = s.split("x").map(Number);
  if (!(width > 0 && height > 0)) throw new Error(`not a size: ${s}`);
  return { width, height };
});
const gapMs = Number(process.argv[4] ?? 1000);
if (!(gapMs >= 0)) throw new Error(`not a gap in ms: ${process.argv[4]}`);
const voxlBin = process.env.VOXL_BINARY ?? built("voxl");
if (!voxlBin) {
  console.error("build voxl first (cmake --preset release && cmake --build --preset release --target voxl)");
  process.exit(2);
}


// Runs in the page before its scripts: notes each viewport resize, each
// resize request the page sends, and each picture shown with its size.
function instrument() {
  const log = { resized: [], requests: [], video: [], shown: [] };
  window.addEventListener("resize", () => log.resized.push(performance.now()));
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.startsWith('{"type":"resize"')) log.requests.push(performance.now());
    return send.call(this, data);
  };
  // The server's "video" messages: the new size, just before its key frame.
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        if (typeof ev.data !== "string" || !ev.data.includes('"video"')) return;
        const m = JSON.parse(ev.data);
        if (m.type === "video") log.video.push({ t: performance.now(), width: m.width, height: m.height, codec: m.codec });
      });
    }
  };
  // A picture counts once it is shown 1:1 at its size: checked when the
  // video element presents a frame, and at every animation frame (the
  // layout may follow a moment after the frame).
  const oneToOne = (w, h) => {
    const r = window.voxl?.resize();
    return !!r && r.layout.mode === "desktop" && r.layout.scale === 1 && r.layout.stream.width === w && r.layout.stream.height === h;
  };
  let presented = null; // { width, height } of the newest presented frame
  const check = () => {
    if (presented && oneToOne(presented.width, presented.height)) {
      const last = log.shown[log.shown.length - 1];
      if (!last || last.width !== presented.width || last.height !== presented.height) {
        log.shown.push({ t: performance.now(), width: presented.width, height: presented.height });
      }
    }
  };
  const watch = () => {
    const screen = document.getElementById("screen");
    if (screen instanceof HTMLVideoElement && screen.requestVideoFrameCallback) {
      const onFrame = (_now, meta) => {
        presented = { width: meta.width, height: meta.height };
        check();
        screen.requestVideoFrameCallback(onFrame);
      };
      screen.requestVideoFrameCallback(onFrame);
    }
    const tick = () => {
      const s = window.voxl?.stats();
      // A canvas: the last drawn frame's size.
      if (!(screen instanceof HTMLVideoElement) && s && s.framesDrawn > 0) presented = { width: s.width, height: s.height };
      check();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  Object.defineProperty(window, "__resizeLatency", { value: { log, watch } });
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), "voxl-resizelat-"));
process.env.HOME = home;
const first = sizes[0];
const voxl = await start(
  voxlBin,
  [`--xvfb=${first.width}x${first.height}`, "--addr=127.0.0.1", "--port=0", "--enable-resize", "--audio-enabled=false"],
  /voxl is serving (\S+) \(display (:\d+)\)/,
);
const [, url] = voxl.match;

const ctx = await launchHeadlessChromium(home, first);
try {
  await ctx.addInitScript(instrument);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(url);
  await page.waitForFunction(() => window.voxl?.stats().framesDecoded > 0 && window.voxl.resize()?.holder === true, null, {
    timeout: 60_000,
  });
  // The video element replaces the canvas once the page has started.
  await page.evaluate(() => window.__resizeLatency.watch());
  const wantDesktop = (s) => ({ width: Math.floor(s.width / 8) * 8, height: Math.floor(s.height / 2) * 2 });
  const total = [];
  const beforeRequest = [];
  const requestToVideo = [];
  const videoToShown = [];
  const toPaintover = [];
  let viewport = first;
  for (let i = 0; i < resizes; i++) {
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    const next = sizes[(i + 1) % sizes.length];
    const want = wantDesktop(next);
    const mark = await page.evaluate(() => {
      const { log } = window.__resizeLatency;
      return { resized: log.resized.length, requests: log.requests.length };
    });
    await page.setViewportSize(next);
    const r = await page
      .waitForFunction(
        ({ mark, want }) => {
          const { log } = window.__resizeLatency;
          const t0 = log.resized[mark.resized];
          if (t0 === undefined) return null;
          const shown = log.shown.find((s) => s.t >= t0 && s.width === want.width && s.height === want.height);
          if (!shown) return null;
          const sent = log.requests[mark.requests];
          const video = log.video.find((v) => v.t >= t0 && v.width === want.width && v.height === want.height);
          return {
            total: shown.t - t0,
            request: sent === undefined ? null : sent - t0,
            video: video === undefined || sent === undefined ? null : video.t - sent,
            shown: video === undefined ? null : shown.t - video.t,
          };
        },
        { mark, want },
        { timeout: 30_000, polling: 10 },
      )
      .then((h) => h.jsonValue());
    total.push(r.total);
    if (r.request !== null) beforeRequest.push(r.request);
    if (r.video !== null) requestToVideo.push(r.video);
    if (r.shown !== null) videoToShown.push(r.shown);
    // The still screen's 4:4:4 paintover at the new size (High 4:4:4,
    // "avc1.F4..."), where the browser decodes it: at most 3 s more.
    const paintover = await page
      .waitForFunction(
        ({ mark, want }) => {
          const { log } = window.__resizeLatency;
          const t0 = log.resized[mark.resized];
          const v = log.video.find((v) => v.t >= t0 && v.width === want.width && v.height === want.height && v.codec.startsWith("avc1.F4"));
          return v === undefined ? null : v.t - t0;
        },
        { mark, want },
        { timeout: 3_000, polling: 10 },
      )
      .then((h) => h.jsonValue())
      .catch(() => null);
    if (paintover !== null) toPaintover.push(paintover);
    viewport = next;
  }
  const summary = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    const r1 = (v) => Math.round(v * 10) / 10;
    return {
      p50_ms: r1((sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2),
      p90_ms: r1(q(0.9)),
      min_ms: r1(sorted[0]),
      max_ms: r1(sorted[sorted.length - 1]),
    };
  };
  console.log(
    JSON.stringify({
      resizes,
      gap_ms: gapMs,
      sizes: sizes.map((s) => `${s.width}x${s.height}`),
      binary: path.relative(repo, voxlBin),
      resize_to_sharp: summary(total),
      // The parts: the page's debounce until its request went out; the
      // server resizing, capturing and encoding until the "video" message of
      // the new size arrived; decoding and presenting its key frame.
      resize_to_request: beforeRequest.length ? summary(beforeRequest) : null,
      request_to_video_message: requestToVideo.length ? summary(requestToVideo) : null,
      video_message_to_shown: videoToShown.length ? summary(videoToShown) : null,
      // Then, the screen being still, the full-chroma paintover's "video"
      // message (--paintover-444; none where the browser cannot decode it).
      resize_to_paintover_message: toPaintover.length ? summary(toPaintover) : null,
      last_viewport: `${viewport.width}x${viewport.height}`,
    }),
  );
} finally {
  await ctx.close();
  voxl.child.kill("SIGTERM");
  await new Promise((r) => voxl.child.once("exit", r));
  fs.rmSync(home, { recursive: true, force: true });
}
