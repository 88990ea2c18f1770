// A still screen in full-resolution chroma in the page: Chromium's
// WebCodecs takes High 4:4:4 (the page says so in its "decoder" message), the
// server paints the still screen over in 4:4:4, and a 1-px red line on blue
// shows red and blue in the page, where 4:2:0 would give both columns of the
// pair the mean of their chroma (purple).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const BACKGROUND = "0000ff";
const LINE = { x: 101, y: 100, w: 1, h: 200 }; // an odd column: its chroma pair is 100-101
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const TOLERANCE = 40;

const scope = new e2e.Scope();
let voxl;
let page;

before(
  async () => {
    voxl = await e2e.startVoxl(scope, { args: ["--paintover-444"] });
    await e2e.setRootColor(voxl.display, BACKGROUND);
    await e2e.drawRect(scope, voxl.display, LINE, "ff0000");
    ({ page } = await e2e.launchBrowser(scope));
    await page.goto(voxl.url);
    await e2e.waitStreaming(page);
  },
  { timeout: e2e.TEST_TIMEOUT_MS },
);

after(() => scope.close());

test("Chromium decodes High 4:4:4 and shows a 1-px coloured line sharp once the screen is still", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  const supported = await page.evaluate(async () =>
    (await VideoDecoder.isConfigSupported({ codec: "avc1.F4002A", codedWidth: 1920, codedHeight: 1080 })).supported,
  );
  assert.equal(supported, true, "VideoDecoder takes avc1.F4002A");
  await e2e.waitInPage(page, () => (window.voxl?.stats().codec ?? "").startsWith("avc1.F400"), null, {
    what: "a High 4:4:4 stream",
  });
  // The line and the column beside it: single pixels of the picture shown
  // (the page's code is the test's; it cannot call helpers of its own).
  const where = { x: LINE.x, y: LINE.y + LINE.h / 2, red: RED, blue: BLUE, tol: TOLERANCE };
  const sharp = (w) => {
    const screen = document.getElementById("screen");
    const video = screen instanceof HTMLVideoElement;
    const width = video ? screen.videoWidth : screen.width;
    const height = video ? screen.videoHeight : screen.height;
    if (!width) return null;
    const copy = new OffscreenCanvas(width, height);
    const ctx = copy.getContext("2d", { willReadFrequently: true });
    ctx.drawImage(screen, 0, 0, width, height);
    const line = Array.from(ctx.getImageData(w.x, w.y, 1, 1).data.slice(0, 3));
    const beside = Array.from(ctx.getImageData(w.x - 1, w.y, 1, 1).data.slice(0, 3));
    const near = (a, b) => a.every((v, k) => Math.abs(v - b[k]) <= w.tol);
    window.__voxlE2eChroma = { line, beside };
    return near(line, w.red) && near(beside, w.blue);
  };
  try {
    await e2e.waitInPage(page, sharp, where, { what: "a red line beside blue" });
  } catch (e) {
    const got = await page.evaluate(() => window.__voxlE2eChroma);
    e.message += `\nline ${got?.line}, beside it ${got?.beside}: want red and blue`;
    throw e;
  }
  const s = await e2e.stats(page);
  assert.equal(s.errors, 0, `decoder errors: ${JSON.stringify(s)}`);
});
