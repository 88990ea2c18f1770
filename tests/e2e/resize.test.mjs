// Dynamic resolution through a real browser (--enable-resize): resizing the
// page's viewport resizes the X screen; the page shows the new desktop 1:1,
// pixel for pixel; clicks land on the right pixel afterwards; a recording
// that spans a resize ends with "resize"; the viewer that last used input
// decides the size; a view-only viewer never does.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";
import { startProbe } from "./input_probe.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const BACKGROUND = "000080";
// --resize-scale 2: a page at pixel ratio 1 asks for its CSS size, one at 2
// for twice that, each shown 1:1 in device pixels.
// --control-timeout 1: a page that asks for control gets it once the holder
// has idled for a second.
const RESIZE_ARGS = ["--enable-resize", "--resize-scale=2", "--control-timeout=1"];

const scope = new e2e.Scope();
let voxl;
let first; // the first viewer, at pixel ratio 1, kept across the tests below

before(async () => {
  voxl = await e2e.startVoxl(scope, { args: RESIZE_ARGS });
  await e2e.setRootColor(voxl.display, BACKGROUND);
  first = await openViewer(scope, voxl.url, { width: 1280, height: 720 });
}, opts);
after(() => scope.close());

// With `route`, the page's WebSocket runs through the test, which can send
// on it (toServer) and sees the server's text messages (fromServer).
async function openViewer(local, url, viewport, options = {}, { route = false } = {}) {
  const browser = await e2e.launchBrowser(local, { viewport, ...options });
  if (route) {
    let server = null;
    const waiters = new Set();
    browser.fromServer = [];
    browser.toServer = (m) => server.send(JSON.stringify(m));
    // Resolves once the server has sent a text message that `pred` holds for.
    browser.waitMessage = (pred, what) => {
      if (browser.fromServer.some(pred)) return Promise.resolve();
      return e2e.withTimeout(
        new Promise((resolve) => waiters.add({ pred, resolve })),
        e2e.FRAME_TIMEOUT_MS,
        what,
      );
    };
    await browser.page.routeWebSocket(
      (u) => u.pathname === "/ws",
      (ws) => {
        server = ws.connectToServer();
        server.onMessage((m) => {
          ws.send(m);
          if (typeof m !== "string") return;
          const msg = JSON.parse(m);
          browser.fromServer.push(msg);
          for (const w of [...waiters])
            if (w.pred(msg)) {
              waiters.delete(w);
              w.resolve();
            }
        });
      },
    );
  }
  await browser.page.goto(url);
  await e2e.waitStreaming(browser.page);
  await e2e.waitInPage(browser.page, () => window.voxl.resize()?.enabled === true, null, {
    what: "the server's resize message, enabled",
  });
  return browser;
}

function resizeState(page) {
  return page.evaluate(() => window.voxl.resize());
}

// The picture's box on the page, in CSS pixels.
function pictureBox(page) {
  return page.evaluate(() => {
    const r = document.getElementById("screen").getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

// Waits until the page shows a desktop of `size` laid out at its own size
// (CSS size = desktop / dpr, one desktop pixel per device pixel).
async function waitShownOneToOne(page, size, dpr = 1) {
  await e2e.waitInPage(
    page,
    ({ size, dpr }) => {
      const s = window.voxl.stats();
      const r = window.voxl.resize();
      const box = document.getElementById("screen").getBoundingClientRect();
      return (
        s.width === size.width &&
        s.height === size.height &&
        r.layout.mode === "desktop" &&
        r.layout.scale === 1 &&
        box.width * dpr === size.width &&
        box.height * dpr === size.height
      );
    },
    { size, dpr },
    { what: `the page showing ${size.width}x${size.height} 1:1` },
  );
}

async function resizeViewport(page, viewport, desktop, dpr = 1) {
  await page.setViewportSize(viewport);
  await e2e.waitScreenSize(voxl.display, desktop);
  await waitShownOneToOne(page, desktop, dpr);
}

// Nearest of a few colours: which one a shown pixel is.
const PALETTE = { background: e2e.hexToRgb(BACKGROUND), white: [255, 255, 255], black: [0, 0, 0] };
function classify(rgb) {
  let best = null;
  let bestD = Infinity;
  for (const [name, c] of Object.entries(PALETTE)) {
    const d = c.reduce((sum, v, k) => sum + (v - rgb[k]) ** 2, 0);
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

// What desktop pixel (x, y) is with a 1-pixel checkerboard in `board`.
function expected(board, x, y) {
  const inside = x >= board.x && x < board.x + board.w && y >= board.y && y < board.y + board.h;
  if (!inside) return "background";
  return (x - board.x + y - board.y) % 2 === 0 ? "white" : "black";
}

// Screenshots the picture around `board` (with a margin of background) until
// every shown pixel is the desktop pixel under it: the page shows the
// desktop unscaled and in its place. `dpr` device pixels per CSS pixel.
async function waitPixelExact(page, board, dpr = 1, { timeout = e2e.FRAME_TIMEOUT_MS } = {}) {
  const margin = 12;
  const area = { x: board.x - margin, y: board.y - margin, w: board.w + 2 * margin, h: board.h + 2 * margin };
  const deadline = Date.now() + timeout;
  for (;;) {
    const box = await pictureBox(page);
    const shot = e2e.decodePng(
      await page.screenshot({
        clip: { x: box.left + area.x / dpr, y: box.top + area.y / dpr, width: area.w / dpr, height: area.h / dpr },
        scale: "device",
        caret: "hide",
      }),
    );
    assert.equal(shot.width, area.w, "the screenshot is in device pixels");
    const wrong = [];
    for (let y = 0; y < area.h; y++) {
      for (let x = 0; x < area.w; x++) {
        const want = expected(board, area.x + x, area.y + y);
        const rgb = shot.rgb(x, y);
        if (classify(rgb) !== want) wrong.push({ x: area.x + x, y: area.y + y, want, rgb });
      }
    }
    if (wrong.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${wrong.length} of ${area.w * area.h} shown pixels are not the desktop's; first: ${JSON.stringify(wrong.slice(0, 8))}`,
      );
    }
    // The paintover sharpens a still screen within a second or so.
    await page.waitForTimeout(250);
  }
}

// A POST to voxl from node; resolves to { status, headers, body (Buffer) }.
function post(path) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: voxl.port, path, method: "POST", headers: { "Content-Type": "application/json", "Content-Length": 0 }, timeout: 60_000 },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.once("timeout", () => req.destroy(new Error(`no answer to POST ${path}`)));
    req.once("error", reject);
    req.end();
  });
}

async function waitLog(server, pattern, what) {
  const deadline = Date.now() + e2e.FRAME_TIMEOUT_MS;
  while (!pattern.test(server.stderr())) {
    if (Date.now() > deadline) throw new Error(`voxl did not log ${what}:\n${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("the desktop takes the page's size and the page shows it 1:1, pixel for pixel", opts, async () => {
  const { page } = first;
  // The first (and only) viewer's window decides.
  await e2e.waitScreenSize(voxl.display, { width: 1280, height: 720 });
  await waitShownOneToOne(page, { width: 1280, height: 720 });
  await e2e.waitInPage(page, () => window.voxl.resize().holder === true, null, { what: "this page holding the size" });
  assert.equal((await resizeState(page)).status, "desktop follows this window");

  await resizeViewport(page, { width: 1000, height: 600 }, { width: 1000, height: 600 });
  assert.deepEqual(await pictureBox(page), { left: 0, top: 0, width: 1000, height: 600 });
  // A 1-pixel checkerboard: any scaling or shift of the picture mixes or
  // swaps its pixels.
  const local = new e2e.Scope();
  try {
    const board = { x: 200, y: 120, w: 400, h: 240 };
    await e2e.drawRect(local, voxl.display, board, "ffffff", { checker: 1 });
    await waitPixelExact(page, board);
  } finally {
    await local.close();
  }
  const s = await e2e.stats(page);
  assert.equal(s.errors, 0, `decoder errors: ${JSON.stringify(s)}`);
  assert.equal(s.connections, 1, "resized without a reconnect");
});

test("a click after a resize lands on the right desktop pixel", opts, async () => {
  const { page } = first;
  // An odd width: the desktop is 8-aligned (1104 of 1107), the picture centred.
  await resizeViewport(page, { width: 1107, height: 621 }, { width: 1104, height: 620 });
  const box = await pictureBox(page);
  assert.deepEqual(box, { left: 1, top: 0, width: 1104, height: 620 });
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    const points = [
      { x: 501, y: 301 },
      { x: 1100, y: 615 }, // beyond the 1000x600 desktop of before
      { x: 13, y: 17 },
    ];
    for (const p of points) await page.mouse.click(box.left + p.x + 0.5, box.top + p.y + 0.5);
    await probe.waitFor(() => probe.buttons().length >= points.length, 30_000, "the clicks");
    assert.deepEqual(
      probe.buttons(),
      points.map((p) => `button down 1 ${p.x} ${p.y}`),
    );
  } finally {
    await local.close();
  }
});

test("a recording that spans a resize ends with X-Voxl-Ended: resize", opts, async () => {
  const { page } = first;
  const started = await post("/record/start");
  assert.equal(started.status, 200, started.body.toString());
  const id = JSON.parse(started.body.toString()).id;
  // A resize before the recording's first frame is not one it spans.
  await waitLog(voxl, new RegExp(`recording ${id} begins with a`), `recording ${id}'s first frame`);
  await resizeViewport(page, { width: 800, height: 600 }, { width: 800, height: 600 });
  await waitLog(voxl, new RegExp(`recording ${id} ended \\(resize\\)`), `recording ${id} ended (resize)`);
  const stopped = await post(`/record/stop?id=${id}`);
  assert.equal(stopped.status, 200, stopped.body.toString());
  assert.equal(stopped.headers["x-voxl-ended"], "resize");
  assert.equal(stopped.body.toString("latin1", 4, 8), "ftyp", "an MP4");
  assert.ok(Number(stopped.headers["x-voxl-frames"]) >= 1, `frames: ${stopped.headers["x-voxl-frames"]}`);
});

test("the viewer that last used input decides the desktop's size", opts, async () => {
  const local = new e2e.Scope();
  try {
    // The first page clicked last (above), so it holds the size.
    const other = await openViewer(local, voxl.url, { width: 1200, height: 680 }, {}, { route: true });
    await e2e.waitInPage(other.page, () => window.voxl.resize().sent >= 1 && window.voxl.resize().holder === false, null, {
      what: "the second page asking, not holding",
    });
    const o = await resizeState(other.page);
    assert.equal(o.status, "desktop follows another viewer's window (the last to use input)");
    assert.deepEqual(o.lastSent, { width: 1200, height: 680 });
    assert.deepEqual(await e2e.screenSize(voxl.display), { width: 800, height: 600 }, "the holder's size stays");
    // The holder's smaller desktop fits this window: 1:1 here too.
    await e2e.waitInPage(other.page, () => window.voxl.resize().layout.mode === "desktop", null, {
      what: "800x600 shown 1:1 in 1200x680",
    });

    // The second page asks for control (on its socket; the page's own
    // button comes with the control panel) and gets it once the first has
    // idled for --control-timeout: control, and with it the size, again as
    // asked before.
    other.toServer({ type: "control", action: "request" });
    await e2e.waitInPage(other.page, () => window.voxl.resize().holder === true, null, { what: "the second page holding" });
    await e2e.waitScreenSize(voxl.display, { width: 1200, height: 680 });
    await waitShownOneToOne(other.page, { width: 1200, height: 680 });
    // The first page now shows the larger desktop scaled into its 800x600.
    await e2e.waitInPage(
      first.page,
      () => {
        const r = window.voxl.resize();
        return !r.holder && r.layout.mode === "fit" && r.layout.stream.width === 1200;
      },
      null,
      { what: "the first page scaling the other's desktop" },
    );
    assert.match((await resizeState(first.page)).status, /another viewer's window/);

    // And back: the second page lets go, and the first page's input (a
    // click on its scaled picture) takes control and the size.
    other.toServer({ type: "control", action: "release" });
    await other.waitMessage((m) => m.type === "viewers" && m.holder === 0, "control let go");
    await first.page.mouse.click(400, 300);
    await e2e.waitScreenSize(voxl.display, { width: 800, height: 600 });
    await waitShownOneToOne(first.page, { width: 800, height: 600 });
    assert.equal((await resizeState(first.page)).status, "desktop follows this window");
  } finally {
    await local.close();
  }
});

test("at a pixel ratio of 2 the desktop has the window's device pixels, shown 1:1", opts, async () => {
  const local = new e2e.Scope();
  try {
    const hidpi = await openViewer(local, voxl.url, { width: 600, height: 400 }, { deviceScaleFactor: 2 }, { route: true });
    // Control (the first page has idled past --control-timeout) makes it
    // the holder.
    hidpi.toServer({ type: "control", action: "request" });
    await e2e.waitInPage(hidpi.page, () => window.voxl.resize().holder === true, null, { what: "the 2x page holding" });
    await e2e.waitScreenSize(voxl.display, { width: 1200, height: 800 });
    await waitShownOneToOne(hidpi.page, { width: 1200, height: 800 }, 2);
    const board = { x: 300, y: 200, w: 320, h: 200 };
    await e2e.drawRect(local, voxl.display, board, "ffffff", { checker: 1 });
    await waitPixelExact(hidpi.page, board, 2);
    // The cursor is drawn at the picture's scale from an image of the
    // screen's density, not enlarged from a 1x one.
    const cursor = (await hidpi.page.evaluate(() => window.voxl.interaction())).cursor;
    if (cursor && !cursor.hidden) assert.match(cursor.css, /^image-set\(url\(data:image\/png;base64,[^)]*\) 2x\) \d+ \d+, default$/);
  } finally {
    await local.close();
  }
});

test("a view-only viewer's page does not resize the desktop", opts, async () => {
  const local = new e2e.Scope();
  try {
    const guarded = await e2e.startVoxl(local, {
      args: [...RESIZE_ARGS, "--enable-basic-auth", "--basic-auth-password=full-secret", "--basic-auth-viewonly-password=look-only"],
    });
    // Nobody has asked: the configured size.
    await e2e.waitScreenSize(guarded.display, e2e.DESKTOP);
    const viewer = await openViewer(local, guarded.url, { width: 1000, height: 700 }, {
      httpCredentials: { username: "voxl", password: "look-only" },
    });
    const { page } = viewer;
    await e2e.waitInPage(page, () => window.voxl.resize().viewOnly === true, null, { what: "view-only" });
    await page.setViewportSize({ width: 904, height: 500 });
    await e2e.waitInPage(page, () => window.voxl.resize().wanted?.width === 904, null, { what: "the new stage measured" });
    const r = await resizeState(page);
    assert.equal(r.status, "view-only: the desktop's size is set by others");
    assert.equal(r.sent, 0, "the page asked for nothing");
    assert.equal(r.pending, false);
    // The 640x480 desktop fits: shown 1:1 all the same.
    await waitShownOneToOne(page, e2e.DESKTOP);

    // The server does not trust the page: the same viewer's socket asking
    // anyway is refused, and the desktop keeps its size.
    const refused = await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          const timer = setTimeout(() => reject(new Error("no refusal")), 30_000);
          ws.onopen = () => ws.send(JSON.stringify({ type: "resize", width: 800, height: 600 }));
          ws.onmessage = (ev) => {
            if (typeof ev.data !== "string") return;
            const m = JSON.parse(ev.data);
            if (m.type !== "refused") return;
            clearTimeout(timer);
            ws.close();
            resolve(m);
          };
        }),
    );
    assert.equal(refused.what, "resize", JSON.stringify(refused));
    assert.deepEqual(await e2e.screenSize(guarded.display), e2e.DESKTOP);

    // A full viewer does resize it; the view-only page then scales the
    // larger desktop into its window.
    const full = await openViewer(local, guarded.url, { width: 1200, height: 720 }, {
      httpCredentials: { username: "voxl", password: "full-secret" },
    });
    await e2e.waitScreenSize(guarded.display, { width: 1200, height: 720 });
    await waitShownOneToOne(full.page, { width: 1200, height: 720 });
    await e2e.waitInPage(
      page,
      () => {
        const s = window.voxl.stats();
        return s.width === 1200 && window.voxl.resize().layout.mode === "fit";
      },
      null,
      { what: "the view-only page scaling 1200x720 into 904x500" },
    );
    assert.equal((await resizeState(page)).sent, 0);
  } finally {
    await local.close();
  }
});
