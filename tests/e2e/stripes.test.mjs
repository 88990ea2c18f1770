// A striped stream (--stripes N: the picture coded as N horizontal bands,
// each its own H.264 stream) shows as one picture in the page: a rectangle
// drawn across the bands' boundaries is whole on both sides of each, in
// every way the page draws (video element, worker canvas, the page's own
// thread), and a change within one band reaches the page while the others
// stay as they were.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { stripeBands } from "../../web/test/stripe_bands.mjs";
import * as e2e from "./support.mjs";

const bandsOf = stripeBands;

// The first rows of every band but the first.
function boundaries(stripes) {
  return bandsOf(e2e.DESKTOP.height, stripes).slice(1).map((b) => b.y);
}

const BACKGROUND = "000080";
const COLOR = "ff0000";
const INSET = 12; // clear of the chroma and block smearing at a rectangle's edge
// Each point is the centre of the 5x5 block the page samples: 3 rows above a
// boundary samples the 5 rows just above it, 2 rows below the 5 just below.
const ABOVE = -3;
const BELOW = 2;

// Inside the rectangle just above and just below each boundary it crosses,
// at its left, middle and right; outside it, left and right of each
// boundary, above and below it, and two corners of the screen.
function pointsAcross(rect, cuts, inside, outside) {
  const xs = [rect.x + INSET, rect.x + Math.floor(rect.w / 2), rect.x + rect.w - 1 - INSET];
  const points = [];
  for (const b of cuts) {
    assert.ok(b + ABOVE - 2 > rect.y + INSET && b + BELOW + 2 < rect.y + rect.h - INSET, `the rectangle crosses row ${b}`);
    for (const dy of [ABOVE, BELOW]) {
      for (const x of xs) points.push({ x, y: b + dy, rgb: inside });
      points.push({ x: rect.x - INSET, y: b + dy, rgb: outside });
      points.push({ x: rect.x + rect.w + INSET, y: b + dy, rgb: outside });
    }
  }
  const d = e2e.DESKTOP;
  points.push(
    { x: rect.x + rect.w / 2, y: rect.y - INSET, rgb: outside },
    { x: rect.x + rect.w / 2, y: rect.y + rect.h + INSET, rgb: outside },
    { x: 8, y: 8, rgb: outside },
    { x: d.width - 9, y: d.height - 9, rgb: outside },
  );
  return points;
}

// Waits for a picture of `stripes` streams in `page` showing `points`.
async function expectStriped(page, stripes, points) {
  await e2e.waitStreaming(page);
  await e2e.waitInPage(page, (n) => window.voxl?.stats().stripes === n, stripes, { what: `a stream of ${stripes} stripes` });
  await e2e.waitForColors(page, points);
  const s = await e2e.stats(page);
  assert.equal(s.stripes, stripes, JSON.stringify(s));
  assert.equal(s.width, e2e.DESKTOP.width, "the whole picture's width");
  assert.equal(s.height, e2e.DESKTOP.height, "the whole picture's height, not a band's");
  assert.equal(s.errors, 0, `decoder errors: ${JSON.stringify(s)}`);
  assert.ok(s.framesDrawn >= 1 && s.framesDrawn <= s.framesDecoded, JSON.stringify(s));
  return s;
}

// --stripes 4 on 640x480: 30 macroblock rows in bands of 8, 8, 7 and 7.
const STRIPES = 4;
const CUTS = boundaries(STRIPES);
// Across every boundary, top band to bottom band.
const RECT = { x: 160, y: 64, w: 320, h: 368 };

const scope = new e2e.Scope();
let voxl;
let page;
let messages;

before(
  async () => {
    assert.deepEqual(CUTS, [128, 256, 368]);
    voxl = await e2e.startVoxl(scope, { args: ["--stripes", String(STRIPES)] });
    await e2e.setRootColor(voxl.display, BACKGROUND);
    await e2e.drawRect(scope, voxl.display, RECT, COLOR);
    ({ page, messages } = await e2e.launchBrowser(scope));
    await page.goto(voxl.url);
  },
  { timeout: e2e.TEST_TIMEOUT_MS },
);

after(() => scope.close());

test("the bands make one picture: a rectangle across every boundary is whole on both sides", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  const s = await expectStriped(page, STRIPES, pointsAcross(RECT, CUTS, COLOR, BACKGROUND));
  // Chromium decodes in the render worker and shows the composed picture in a video element.
  assert.equal(s.drawer, "worker, video element");
  const box = await page.evaluate(() => {
    const c = document.getElementById("screen");
    return { tag: c.tagName, width: c.videoWidth ?? c.width, height: c.videoHeight ?? c.height, cssHeight: c.getBoundingClientRect().height };
  });
  assert.deepEqual(box, { tag: "VIDEO", width: e2e.DESKTOP.width, height: e2e.DESKTOP.height, cssHeight: e2e.DESKTOP.height });
  assert.ok(!messages.some((m) => m.startsWith("pageerror")), messages.join("\n"));
});

test("the fallbacks compose the same picture: a canvas in the worker, and the page's own thread", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  for (const [key, value, drawer] of [["video", "0", "worker, canvas"], ["worker", "0", "main thread"]]) {
    const p = await page.context().newPage();
    try {
      const url = new URL(voxl.url);
      url.searchParams.set(key, value);
      await p.goto(url.href);
      const s = await expectStriped(p, STRIPES, pointsAcross(RECT, CUTS, COLOR, BACKGROUND));
      assert.equal(s.drawer, drawer);
    } finally {
      await p.close();
    }
  }
});

test("a change within one band reaches the page; the other bands stay as they were", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  await e2e.waitForColors(page, pointsAcross(RECT, CUTS, COLOR, BACKGROUND));
  const before = await e2e.stats(page);
  // Inside the third band (rows 256-367) alone, over the rectangle.
  const small = { x: 200, y: 280, w: 96, h: 64 };
  assert.ok(small.y >= CUTS[1] && small.y + small.h <= CUTS[2]);
  const centre = (rgb) => ({ x: small.x + small.w / 2, y: small.y + small.h / 2, rgb });
  const mark = await e2e.drawRect(scope, voxl.display, small, "00ff00");
  await e2e.waitForColors(page, [centre("00ff00"), ...pointsAcross(RECT, CUTS, COLOR, BACKGROUND).filter((p) => !inside(small, p))]);
  await mark.setColor("ffffff");
  await e2e.waitForColors(page, [centre("ffffff"), ...pointsAcross(RECT, CUTS, COLOR, BACKGROUND).filter((p) => !inside(small, p))]);
  const now = await e2e.stats(page);
  assert.ok(now.framesDecoded > before.framesDecoded, `frames decoded: ${before.framesDecoded} -> ${now.framesDecoded}`);
  assert.equal(now.connections, 1, "over the first connection");
  assert.equal(now.errors, 0, `decoder errors: ${JSON.stringify(now)}`);
  assert.equal(now.stripes, STRIPES);
});

function inside(r, p) {
  return p.x >= r.x - INSET && p.x < r.x + r.w + INSET && p.y >= r.y - INSET && p.y < r.y + r.h + INSET;
}

test("--stripes 2: two bands of 15 rows make one picture too", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  const local = new e2e.Scope();
  try {
    const cuts = boundaries(2);
    assert.deepEqual(cuts, [240]);
    const two = await e2e.startVoxl(local, { args: ["--stripes", "2"] });
    await e2e.setRootColor(two.display, BACKGROUND);
    const rect = { x: 96, y: 160, w: 256, h: 160 };
    await e2e.drawRect(local, two.display, rect, "00ff00");
    const p = await page.context().newPage();
    local.defer(() => p.close());
    await p.goto(two.url);
    await expectStriped(p, 2, pointsAcross(rect, cuts, "00ff00", BACKGROUND));
  } finally {
    await local.close();
  }
});
