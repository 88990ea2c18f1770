// voxl's own Wayland desktop (--wayland, headless sway) in Chromium: the
// page shows the Wayland program's picture, a click on the page reaches the
// program where it was made, and typed text arrives (the program paints
// itself the colour of the last character it got).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const PROBE = process.env.VOXL_WAYLAND_PROBE || "";
const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const { width, height } = e2e.DESKTOP;

// Points away from the edges and from where the pointer is drawn (the
// compositor draws it into the picture: a headless output has no cursor
// plane).
const points = (rgb) =>
  [
    { x: 40, y: 400 },
    { x: 320, y: 240 },
    { x: 600, y: 60 },
    { x: 600, y: 440 },
  ].map((p) => ({ ...p, rgb }));

const scope = new e2e.Scope();
let voxl;
let page;

before(async () => {
  assert.ok(PROBE, "VOXL_WAYLAND_PROBE names the tests' Wayland program");
  voxl = await e2e.startVoxl(scope, { desktop: `--wayland=${width}x${height}`, exec: `${PROBE} 336699 react` });
  assert.match(voxl.stderr(), /desktop: Wayland \(voxl's own headless compositor \(--wayland\)\)/);
  ({ page } = await e2e.launchBrowser(scope));
  await page.goto(voxl.url);
  await e2e.waitStreaming(page);
}, opts);
after(() => scope.close());

test("the page shows the Wayland program and its clicks and keys reach it", opts, async () => {
  await e2e.waitForColors(page, points("336699"));
  const rect = await page.evaluate(() => {
    const r = document.getElementById("screen").getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
  const at = (x, y) => ({
    x: rect.left + ((x + 0.5) * rect.width) / width,
    y: rect.top + ((y + 0.5) * rect.height) / height,
  });
  const p = at(100, 50);
  await page.mouse.click(p.x, p.y);
  await e2e.waitForColors(page, points("00ff00"));
  // A key the page sends by name, then a character outside the US layout.
  await page.keyboard.type("z");
  await e2e.waitForColors(page, points("00007a"));
  await page.keyboard.insertText("ж");
  await e2e.waitForColors(page, points("000436"));
  assert.ok(voxl.running(), "voxl still runs");
});
