// Shared helpers for the browser tests: start voxl on a private Xvfb, draw on
// its display, drive headless Chromium through playwright-core (or headless
// Firefox ESR through puppeteer-core over WebDriver BiDi), read the client's
// state and the pixels of its canvas.
//
// Environment (set by tests/e2e/CMakeLists.txt):
//   VOXL_BINARY    the voxl executable
//   VOXL_E2E_DRAW  the voxl-e2e-draw helper
//   VOXL_REPO      the source tree (playwright-core and puppeteer-core live
//                  in web/node_modules)
//   VOXL_CHROMIUM  optional, the browser (default /usr/bin/chromium)
//   VOXL_FIREFOX   optional, Firefox ESR (default /usr/bin/firefox-esr)

import { execFile, spawn } from "node:child_process";
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO = process.env.VOXL_REPO || path.resolve(here, "../..");
export const VOXL_BINARY = process.env.VOXL_BINARY || path.join(REPO, "build/dev/voxl");
export const DRAW_BINARY = process.env.VOXL_E2E_DRAW || "";
export const CHROMIUM = process.env.VOXL_CHROMIUM || "/usr/bin/chromium";
export const FIREFOX = process.env.VOXL_FIREFOX || "/usr/bin/firefox-esr";

const webRequire = createRequire(path.join(REPO, "web/package.json"));
const { chromium } = webRequire("playwright-core");

// The desktop every test streams; the browser window is larger, so the
// canvas shows the stream 1:1.
export const DESKTOP = { width: 640, height: 480 };
export const VIEWPORT = { width: 1280, height: 720 };

// Deadlines are generous: a sanitizer build, an encoder and a browser share
// two cores.
export const START_TIMEOUT_MS = 60_000;
export const FRAME_TIMEOUT_MS = 45_000;
export const RECONNECT_TIMEOUT_MS = 60_000;
export const TEST_TIMEOUT_MS = 240_000;

// ---------------------------------------------------------------------------
// Cleanup

// Everything started here, so that even a test that dies half way leaves no
// process behind.
const live = new Set();
process.on("exit", () => {
  for (const child of live) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
});

// Undo actions run in reverse order; one failing does not stop the others.
export class Scope {
  #actions = [];

  defer(fn) {
    this.#actions.push(fn);
  }

  async close() {
    const errors = [];
    while (this.#actions.length) {
      const fn = this.#actions.pop();
      try {
        await fn();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length) throw new AggregateError(errors, "cleanup failed");
  }
}

// Children get SIGTERM should this process die without cleaning up (a
// ctest timeout kills it outright), where setpriv is there to arrange it.
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => fs.existsSync(p));

function spawnTied(program, args, options) {
  if (!SETPRIV) return spawn(program, args, options);
  return spawn(SETPRIV, ["--pdeathsig", "TERM", "--", program, ...args], options);
}

function track(child) {
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

// Waits for the child to exit, at most `ms`; true when it has.
async function waitExit(child, ms) {
  if (exited(child)) return true;
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = once(child, "exit").then(() => true);
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Waits for `child` to exit, at most `ms`; otherwise throws "`what` within
// `ms` ms". Resolves to { code, signal }.
export async function waitChildExit(child, ms, what) {
  if (!(await waitExit(child, ms))) throw new Error(`${what} within ${ms} ms`);
  return { code: child.exitCode, signal: child.signalCode };
}

// SIGTERM, then SIGKILL after `graceMs`. Returns how it ended.
async function terminate(child, graceMs) {
  if (!exited(child)) {
    child.kill("SIGTERM");
    if (!(await waitExit(child, graceMs))) {
      child.kill("SIGKILL");
      await waitExit(child, 10_000);
      return { code: child.exitCode, signal: child.signalCode, killed: true };
    }
  }
  return { code: child.exitCode, signal: child.signalCode, killed: false };
}

export async function tempDir(scope, prefix) {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `voxl-e2e-${prefix}-`));
  scope.defer(() => fs.promises.rm(dir, { recursive: true, force: true }));
  return dir;
}

// A self-signed certificate for `cn`, valid a day: { key, cert } paths in `dir`.
export async function selfSignedCert(dir, cn = "localhost") {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  await promisify(execFile)(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${cn}`, "-keyout", key, "-out", cert],
    { timeout: 60_000 },
  );
  return { key, cert };
}

// A port that was free a moment ago (bind to 0, read it, let go).
export async function freePort() {
  const srv = net.createServer();
  srv.listen(0, "127.0.0.1");
  await once(srv, "listening");
  const { port } = srv.address();
  srv.close();
  await once(srv, "close");
  return port;
}

// ---------------------------------------------------------------------------
// voxl

const SERVING = /voxl is serving (https?:\/\/\S+?) \(display ([^)\s]+)\)/;
// voxl's private Xvfb admits only holders of its cookie; the log names the file.
const COOKIE = /private Xvfb on (:\d+) .*admitting only holders of its cookie \((\S+)\)/;
const authorities = new Map(); // display -> Xauthority file of the voxl that runs it

// The environment for an X client of `display` (one of voxl's private
// displays): DISPLAY and the XAUTHORITY that lets it in.
export function displayEnv(display) {
  const env = { ...process.env, DISPLAY: display };
  const file = authorities.get(display);
  if (file) env.XAUTHORITY = file;
  return env;
}

// Starts voxl on its own Xvfb of DESKTOP's size (or the desktop flag given,
// such as --wayland=640x480) and waits for its "serving" line. `args` are
// extra flags, `exec` a command to run on the display.
// Returns { url, origin, port, display, stderr(), running(), stop() }; stop()
// resolves to { code, signal, killed } and is also deferred to `scope`.
export async function startVoxl(
  scope,
  { port = 0, args = [], exec = null, env = {}, desktop = `--xvfb=${DESKTOP.width}x${DESKTOP.height}` } = {},
) {
  const argv = [desktop, "--addr=127.0.0.1", `--port=${port}`, ...args];
  if (exec !== null) argv.push("--exec", exec);
  const child = track(
    spawnTied(VOXL_BINARY, argv, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } }),
  );
  let log = "";
  const onData = (d) => {
    log += d.toString();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);

  let stopped = null;
  const stop = async () => {
    stopped ??= terminate(child, 20_000);
    return stopped;
  };
  scope.defer(stop);

  const match = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`voxl did not start in ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const check = () => {
      const m = SERVING.exec(log);
      if (m) finish(null, m);
    };
    const onExit = (code, signal) => finish(new Error(`voxl exited during start-up (code ${code}, signal ${signal})`));
    const onError = (e) => finish(e);
    function finish(err, m) {
      clearTimeout(timer);
      child.stdout.off("data", check);
      child.stderr.off("data", check);
      child.off("exit", onExit);
      child.off("error", onError);
      if (err) {
        err.message += `\n--- voxl ${argv.join(" ")} ---\n${log}`;
        reject(err);
      } else {
        resolve(m);
      }
    }
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    child.once("exit", onExit);
    child.once("error", onError);
    check();
  });

  const url = match[1];
  const u = new URL(url);
  const cookie = COOKIE.exec(log);
  if (cookie && cookie[1] === match[2]) authorities.set(match[2], cookie[2]);
  return {
    url,
    origin: u.origin,
    port: Number(u.port),
    display: match[2],
    stderr: () => log,
    running: () => !exited(child),
    stop,
  };
}

// ---------------------------------------------------------------------------
// Drawing on the display

const execFileP = promisify(execFile);

export async function setRootColor(display, rgb) {
  await execFileP("xsetroot", ["-solid", `#${rgb}`], { env: displayEnv(display), timeout: 20_000 });
}

// The X screen's size now, from xdpyinfo: { width, height }.
export async function screenSize(display) {
  const { stdout } = await execFileP("xdpyinfo", [], { env: displayEnv(display), timeout: 20_000 });
  const m = /dimensions:\s+(\d+)x(\d+) pixels/.exec(stdout);
  if (!m) throw new Error(`xdpyinfo names no dimensions:\n${stdout}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

// Waits until the X screen of `display` is `want` ({ width, height }); the
// X server signals nothing a test could wait on, so it asks every 200 ms.
export async function waitScreenSize(display, want, { timeout = FRAME_TIMEOUT_MS } = {}) {
  const deadline = Date.now() + timeout;
  let got = null;
  for (;;) {
    got = await screenSize(display);
    if (got.width === want.width && got.height === want.height) return got;
    if (Date.now() > deadline) {
      throw new Error(`the X screen is ${got.width}x${got.height}, not ${want.width}x${want.height}, after ${timeout} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Shows a filled rectangle (desktop pixels) on `display`, or with
// { checker: N } a checkerboard of N-pixel cells of `rgb` and black (`rgb`
// at its top-left corner). Returns { setColor(rgb), close() }; close() is
// also deferred to `scope`.
export async function drawRect(scope, display, rect, rgb, { checker = 0 } = {}) {
  if (!DRAW_BINARY) throw new Error("VOXL_E2E_DRAW is not set");
  const args = [`--display=${display}`, `--rect=${rect.x},${rect.y},${rect.w},${rect.h}`, `--color=${rgb}`];
  if (checker > 0) args.push(`--checker=${checker}`);
  const child = track(
    spawnTied(DRAW_BINARY, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: displayEnv(display),
    }),
  );
  let err = "";
  child.stderr.on("data", (d) => {
    err += d.toString();
  });
  // Each "ready" line acknowledges one drawing request.
  const waiting = [];
  let out = "";
  child.stdout.on("data", (d) => {
    out += d.toString();
    let nl;
    while ((nl = out.indexOf("\n")) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      if (line === "ready") waiting.shift()?.resolve();
    }
  });
  child.once("exit", (code, signal) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`voxl-e2e-draw exited (code ${code}, signal ${signal}): ${err}`));
  });
  const ready = () =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
    });

  let closed = null;
  const close = () => {
    closed ??= (async () => {
      child.stdin.end();
      if (!(await waitExit(child, 5_000))) await terminate(child, 5_000);
    })();
    return closed;
  };
  scope.defer(close);

  await withTimeout(ready(), 20_000, "voxl-e2e-draw did not map its window");
  return {
    async setColor(c) {
      const done = ready();
      child.stdin.write(`color ${c}\n`);
      await withTimeout(done, 20_000, "voxl-e2e-draw did not repaint");
    },
    close,
  };
}

// `promise`, or an error "`what` within `ms` ms" if it takes longer.
export async function withTimeout(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([
      promise,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------
// Browser

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Runs in every page before its own scripts: reads the stream's canvas.
function pageHelpers() {
  // Mean colour of a 5x5 block around each point; points are in desktop
  // pixels and map onto the canvas by the ratio of the two sizes.
  function sample(points, desktop) {
    // A canvas, or the video element the page shows frames with.
    const screen = document.getElementById("screen");
    const video = screen instanceof HTMLVideoElement;
    if (!(screen instanceof HTMLCanvasElement) && !video) return null;
    const width = video ? screen.videoWidth : screen.width;
    const height = video ? screen.videoHeight : screen.height;
    if (screen.hidden || width === 0) return null;
    const copy = new OffscreenCanvas(width, height);
    const ctx = copy.getContext("2d", { willReadFrequently: true });
    ctx.drawImage(screen, 0, 0, width, height);
    const sx = width / desktop.width;
    const sy = height / desktop.height;
    return points.map((p) => {
      const cx = Math.floor((p.x + 0.5) * sx);
      const cy = Math.floor((p.y + 0.5) * sy);
      const d = ctx.getImageData(cx - 2, cy - 2, 5, 5).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; ++k) sum[k] += d[i + k];
      const n = d.length / 4;
      return { x: p.x, y: p.y, cx, cy, rgb: sum.map((s) => Math.round(s / n)) };
    });
  }
  function matches(got, want, tol) {
    return got.every((g, i) => g.rgb.every((v, k) => Math.abs(v - want[i][k]) <= tol));
  }
  Object.defineProperty(window, "__voxlE2e", { value: Object.freeze({ sample, matches }) });
}

// Launches Chromium with a fresh profile and HOME. `options` go to
// launchPersistentContext (httpCredentials, ignoreHTTPSErrors...). Returns
// { context, page, messages }; closing is deferred to `scope`.
export async function launchBrowser(scope, options = {}) {
  const profile = await tempDir(scope, "profile");
  const home = await tempDir(scope, "home");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: home },
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    timeout: START_TIMEOUT_MS,
    ...options,
  });
  scope.defer(() => context.close());
  await context.addInitScript(pageHelpers);
  const page = context.pages()[0] ?? (await context.newPage());
  // Kept for failure messages.
  const messages = [];
  page.on("console", (m) => messages.push(`console.${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => messages.push(`pageerror: ${e.message}`));
  return { context, page, messages };
}

// Launches the stock Firefox ESR (FIREFOX; nothing is downloaded) headless
// through puppeteer-core over WebDriver BiDi, with a fresh profile and HOME,
// at VIEWPORT. The page it returns speaks the part of playwright's Page the
// helpers here use (goto, evaluate and waitForFunction with one argument,
// mouse, keyboard), so waitStreaming, waitForColors and the rest serve both
// browsers; `page.puppeteer` is the puppeteer Page itself. `prefs` are
// extra Firefox preferences, `env` extra environment. Returns
// { browser, page, messages }; closing is deferred to `scope`.
export async function launchFirefox(scope, { prefs = {}, env = {} } = {}) {
  const puppeteer = webRequire("puppeteer-core");
  const profile = await tempDir(scope, "firefox-profile");
  const home = await tempDir(scope, "firefox-home");
  const browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    env: { ...process.env, HOME: home, MOZ_CRASHREPORTER_DISABLE: "1", ...env },
    defaultViewport: { ...VIEWPORT, deviceScaleFactor: 1 },
    timeout: START_TIMEOUT_MS,
    protocolTimeout: START_TIMEOUT_MS,
    extraPrefsFirefox: prefs,
  });
  scope.defer(() => browser.close());
  const raw = (await browser.pages())[0] ?? (await browser.newPage());
  // The first tab keeps the window's size otherwise.
  await raw.setViewport({ ...VIEWPORT, deviceScaleFactor: 1 });
  await raw.evaluateOnNewDocument(pageHelpers);
  const messages = [];
  raw.on("console", (m) => messages.push(`console.${m.type()}: ${m.text()}`));
  raw.on("pageerror", (e) => messages.push(`pageerror: ${e.message}`));
  const page = {
    puppeteer: raw,
    goto: (url) => raw.goto(url),
    evaluate: (fn, arg) => raw.evaluate(fn, arg),
    waitForFunction: (fn, arg, { timeout, polling } = {}) => raw.waitForFunction(fn, { timeout, polling }, arg),
    mouse: raw.mouse,
    keyboard: raw.keyboard,
  };
  return { browser, page, messages };
}

// The pixels of a PNG, as page.screenshot() writes them (8-bit RGB or RGBA,
// not interlaced): { width, height, rgb(x, y) -> [r, g, b] }.
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, color, , , interlace] = data.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[color] ?? 0;
      if (depth !== 8 || !channels || interlace) throw new Error(`PNG of depth ${depth}, colour type ${color}, interlace ${interlace}`);
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = px.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? px.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0;
      const b = up ? up[i] : 0;
      const c = up && i >= channels ? up[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`PNG filter ${filter}`);
      out[i] = v & 0xff;
    }
  }
  return {
    width,
    height,
    rgb: (x, y) => {
      const o = y * stride + x * channels;
      return [px[o], px[o + 1], px[o + 2]];
    },
  };
}

export async function stats(page) {
  return page.evaluate(() => (window.voxl ? window.voxl.stats() : null));
}

// page.waitForFunction, with the client's state in the error when it times out.
export async function waitInPage(page, fn, arg, { timeout = FRAME_TIMEOUT_MS, what = "condition" } = {}) {
  try {
    return await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  } catch (e) {
    let s;
    try {
      s = JSON.stringify(await stats(page));
    } catch (e2) {
      s = `(unavailable: ${e2.message})`;
    }
    e.message = `waiting for ${what}: ${e.message}\nclient stats: ${s}`;
    throw e;
  }
}

// Waits until the client streams: state "streaming", at least `frames` frames
// decoded and `connections` connections made. Returns its stats.
export async function waitStreaming(page, { frames = 1, connections = 1, timeout = FRAME_TIMEOUT_MS } = {}) {
  await waitInPage(
    page,
    ({ frames, connections }) => {
      const s = window.voxl?.stats();
      return !!s && s.state === "streaming" && s.framesDecoded >= frames && s.connections >= connections;
    },
    { frames, connections },
    { timeout, what: `streaming with ${frames} frame(s) over ${connections} connection(s)` },
  );
  return stats(page);
}

// Mean colours at desktop points, or null while nothing is shown.
export async function samplePixels(page, points) {
  return page.evaluate(({ points, desktop }) => window.__voxlE2e.sample(points, desktop), { points, desktop: DESKTOP });
}

export function hexToRgb(hex) {
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

// Colour tolerance per channel for telling the colours of a test apart
// (they differ by 128 or more in some channel). Wide on purpose: besides the
// few levels H.264 and the YUV round trip cost, the picture is decoded with
// the BT.709 matrix although the encoder converts with BT.601 (pure green
// shows as 0,215,0); render.test.mjs checks exact colours separately.
export const COLOR_TOLERANCE = 48;

// Waits until every desktop point in `expect` ([{x, y, rgb: "RRGGBB"}]) shows
// its colour on the canvas.
export async function waitForColors(page, expect, { timeout = FRAME_TIMEOUT_MS, tol = COLOR_TOLERANCE } = {}) {
  const points = expect.map(({ x, y }) => ({ x, y }));
  const want = expect.map(({ rgb }) => hexToRgb(rgb));
  try {
    await waitInPage(
      page,
      ({ points, want, tol, desktop }) => {
        const got = window.__voxlE2e.sample(points, desktop);
        return !!got && window.__voxlE2e.matches(got, want, tol);
      },
      { points, want, tol, desktop: DESKTOP },
      { timeout, what: `colours ${expect.map((e) => `(${e.x},${e.y})=#${e.rgb}`).join(" ")}` },
    );
  } catch (e) {
    const got = await samplePixels(page, points).catch(() => null);
    e.message += `\ncanvas shows: ${JSON.stringify(got)}`;
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Plain HTTP from node

// Sends a WebSocket upgrade to /ws by hand (over TLS with `tls`, trusting any
// certificate); `auth` is "user:password" for Basic auth, `extra` more
// headers. Resolves with { status, headers, key } where status is 101 on
// success or the refusal's status.
export async function wsUpgrade({ port, origin, host = `127.0.0.1:${port}`, auth, tls = false, extra = {} } = {}) {
  const key = crypto.randomBytes(16).toString("base64");
  const headers = {
    Host: host,
    Connection: "Upgrade",
    Upgrade: "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": key,
  };
  if (origin !== undefined) headers.Origin = origin;
  if (auth) headers.Authorization = `Basic ${Buffer.from(auth).toString("base64")}`;
  Object.assign(headers, extra);
  return new Promise((resolve, reject) => {
    const request = tls ? https.request : http.request;
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/ws",
      headers,
      agent: false,
      timeout: 20_000,
      rejectUnauthorized: false,
    });
    req.once("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode, headers: res.headers, key });
    });
    req.once("response", (res) => {
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode, headers: res.headers, key }));
    });
    req.once("timeout", () => req.destroy(new Error("no answer to the upgrade request")));
    req.once("error", reject);
    req.end();
  });
}

export function expectedAccept(key) {
  return crypto
    .createHash("sha1")
    .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest("base64");
}

// ---------------------------------------------------------------------------
// PulseAudio

// An isolated PulseAudio with a 48 kHz stereo null sink "vsink": private
// HOME and XDG_RUNTIME_DIR in a temporary directory, killed with the scope.
// Returns { env, server, sink }.
export async function startPulse(scope) {
  const dir = await tempDir(scope, "pulse");
  const env = { HOME: path.join(dir, "home"), XDG_RUNTIME_DIR: path.join(dir, "run") };
  await fs.promises.mkdir(env.HOME);
  await fs.promises.mkdir(env.XDG_RUNTIME_DIR, { mode: 0o700 });
  const server = `unix:${env.XDG_RUNTIME_DIR}/pulse/native`;
  const child = track(
    spawnTied(
      "pulseaudio",
      ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
        "-L", "module-null-sink sink_name=vsink rate=48000 channels=2", "-L", "module-always-sink",
        "-L", "module-native-protocol-unix auth-anonymous=1"],
      { stdio: "ignore", env: { ...process.env, ...env } },
    ),
  );
  scope.defer(() => terminate(child, 10_000));
  // Ready once it answers; nothing outside the daemon signals that.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      await execFileP("pactl", [`--server=${server}`, "info"], { timeout: 10_000 });
      break;
    } catch (e) {
      if (exited(child) || Date.now() > deadline) throw new Error(`PulseAudio did not start: ${e.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { env, server, sink: "vsink" };
}

// Plays a sine of `hz` into the sink for `seconds` (a WAV through paplay).
export async function playTone(scope, pulse, hz, seconds) {
  const rate = 48000;
  const frames = rate * seconds;
  const wav = Buffer.alloc(44 + frames * 4);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + frames * 4, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 4, 28);
  wav.writeUInt16LE(4, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; ++i) {
    const v = Math.round(12000 * Math.sin((2 * Math.PI * hz * i) / rate));
    wav.writeInt16LE(v, 44 + i * 4);
    wav.writeInt16LE(v, 46 + i * 4);
  }
  const dir = await tempDir(scope, "tone");
  const file = path.join(dir, "tone.wav");
  await fs.promises.writeFile(file, wav);
  const child = track(
    spawnTied("paplay", [`--server=${pulse.server}`, "-d", pulse.sink, file], { stdio: "ignore" }),
  );
  scope.defer(() => terminate(child, 5_000));
}
