// The canvas shows what is on the X display, in the right place, and follows
// it when it changes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

// Desktop pixels. Points are checked 12 px inside and outside each edge, clear
// of the chroma and block smearing at the border.
const RECT = { x: 96, y: 64, w: 256, h: 160 };
const INSET = 12;
const BACKGROUND = "000080";
const FIRST = "ff0000";

function insidePoints(rgb) {
  const { x, y, w, h } = RECT;
  return [
    { x: x + w / 2, y: y + h / 2 },
    { x: x + INSET, y: y + INSET },
    { x: x + w - 1 - INSET, y: y + INSET },
    { x: x + INSET, y: y + h - 1 - INSET },
    { x: x + w - 1 - INSET, y: y + h - 1 - INSET },
  ].map((p) => ({ ...p, rgb }));
}

function outsidePoints(rgb) {
  const { x, y, w, h } = RECT;
  const d = e2e.DESKTOP;
  return [
    { x: x - INSET, y: y + h / 2 }, // left
    { x: x + w + INSET, y: y + h / 2 }, // right
    { x: x + w / 2, y: y - INSET }, // above
    { x: x + w / 2, y: y + h + INSET }, // below
    { x: 8, y: 8 },
    { x: d.width - 9, y: d.height - 9 },
  ].map((p) => ({ ...p, rgb }));
}

const scope = new e2e.Scope();
let voxl;
let rect;
let page;

before(
  async () => {
    voxl = await e2e.startVoxl(scope);
    await e2e.setRootColor(voxl.display, BACKGROUND);
    rect = await e2e.drawRect(scope, voxl.display, RECT, FIRST);
    ({ page } = await e2e.launchBrowser(scope));
    await page.goto(voxl.url);
    await e2e.waitStreaming(page);
  },
  { timeout: e2e.TEST_TIMEOUT_MS },
);

after(() => scope.close());

test("the canvas is the stream's size and shows the rectangle in its place", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  // Chromium decodes in the render worker and shows frames in a video element.
  await e2e.waitForColors(page, [...insidePoints(FIRST), ...outsidePoints(BACKGROUND)]);
  const s = await e2e.stats(page);
  assert.equal(s.drawer, "worker, video element");
  assert.equal(s.width, e2e.DESKTOP.width);
  assert.equal(s.height, e2e.DESKTOP.height);
  // The window is larger than the stream: shown 1:1, centred.
  const box = await page.evaluate(() => {
    const c = document.getElementById("screen");
    const r = c.getBoundingClientRect();
    const video = c instanceof HTMLVideoElement;
    return { width: video ? c.videoWidth : c.width, height: video ? c.videoHeight : c.height, left: r.left, top: r.top, cssWidth: r.width, cssHeight: r.height };
  });
  assert.deepEqual(box, {
    width: e2e.DESKTOP.width,
    height: e2e.DESKTOP.height,
    left: (e2e.VIEWPORT.width - e2e.DESKTOP.width) / 2,
    top: (e2e.VIEWPORT.height - e2e.DESKTOP.height) / 2,
    cssWidth: e2e.DESKTOP.width,
    cssHeight: e2e.DESKTOP.height,
  });
  await e2e.waitForColors(page, [...insidePoints(FIRST), ...outsidePoints(BACKGROUND)]);
});

test("the fallbacks show the same picture: a canvas in the worker, and the page's own thread", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  for (const [query, drawer] of [["video=0", "worker, canvas"], ["worker=0", "main thread"]]) {
    const p = await page.context().newPage();
    try {
      const url = new URL(voxl.url);
      url.searchParams.set(query.split("=")[0], query.split("=")[1]);
      await p.goto(url.href);
      await e2e.waitStreaming(p);
      await e2e.waitForColors(p, [...insidePoints(FIRST), ...outsidePoints(BACKGROUND)]);
      const s = await e2e.stats(p);
      assert.equal(s.drawer, drawer);
      assert.equal(s.width, e2e.DESKTOP.width);
      assert.ok(s.framesDrawn >= 1 && s.framesDrawn <= s.framesDecoded, JSON.stringify(s));
      assert.equal(s.framesPresented, null, "a canvas has no presented count of its own");
    } finally {
      await p.close();
    }
  }
});

test("a redraw on the display reaches the canvas", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  await e2e.waitForColors(page, insidePoints(FIRST));
  const before = await e2e.stats(page);

  await rect.setColor("00ff00");
  await e2e.waitForColors(page, [...insidePoints("00ff00"), ...outsidePoints(BACKGROUND)]);

  await e2e.setRootColor(voxl.display, "ffff00");
  await e2e.waitForColors(page, [...insidePoints("00ff00"), ...outsidePoints("ffff00")]);

  const now = await e2e.stats(page);
  assert.ok(now.framesDecoded > before.framesDecoded, `frames decoded: ${before.framesDecoded} -> ${now.framesDecoded}`);
  // The video element's compositor presented the redraws too (its own count).
  assert.equal(now.drawer, "worker, video element");
  assert.ok(now.framesPresented > before.framesPresented,
            `frames presented: ${before.framesPresented} -> ${now.framesPresented}`);
  assert.equal(now.connections, 1, "the redraws came over the first connection");
  assert.equal(now.errors, 0);
});

// Exact colours, within what H.264 itself costs: the stream signals its
// BT.601 limited-range matrix, so the browser converts back with the same.
test(
  "colours are shown exactly",
  { timeout: e2e.TEST_TIMEOUT_MS },
  async () => {
    await rect.setColor("00ff00");
    await e2e.setRootColor(voxl.display, "ff0000");
    await e2e.waitForColors(page, [...insidePoints("00ff00"), ...outsidePoints("ff0000")], {
      tol: 10,
      timeout: 15_000,
    });
  },
);
