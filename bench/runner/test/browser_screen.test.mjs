// The browser column's pure parts: the on-screen figures from the present
// probe's JSON, how they print, Firefox's processes by kind and the
// browser columns' names (no browser, no X server):
//   node --test bench/runner/test/browser_screen.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { firefoxProcessGroup } from "../cpu.mjs";
import { markerOnScreen, screenFigures } from "../present.mjs";
import { browserColumns, browserOfColumn, fpsCell } from "../results.mjs";

const probe = { ok: true, frames: 880, reads: 900, unreadable: 2, fps: 58.67, fps_worst_second: 55,
                present_p50_ms: 34.3, present_p99_ms: 76.75 };
const whole = { left: 0, top: 0, width: 1920, height: 1080, window_width: 1921, window_height: 1081, screen_x: 0, screen_y: 0,
                device_pixel_ratio: 1 };

test("the probe's figures become the screen fields", () => {
  const f = screenFigures(probe, { layout: whole, width: 1920, height: 1080 });
  assert.equal(f.screen_fps, 58.67);
  assert.equal(f.screen_fps_worst_second, 55);
  assert.equal(f.screen_latency_p50_ms, 34.3);
  assert.equal(f.screen_latency_p99_ms, 76.75);
  assert.equal(f.screen_frames, 880);
  assert.equal(f.screen_unreadable, 2);
  assert.equal(f.screen_error, undefined);
  assert.equal(f.screen_layout_off, undefined);
});

test("a probe that failed or saw nothing is an error, with the layout's reason", () => {
  assert.equal(screenFigures(null, { error: "the present probe exited" }).screen_error, "the present probe exited");
  assert.equal(screenFigures(null).screen_fps, null);
  const scaled = { ...whole, left: 40, width: 1840, height: 1035 };
  const f = screenFigures({ ok: true, frames: 0, fps: 0 }, { layout: scaled, width: 1920, height: 1080 });
  assert.match(f.screen_error, /no marker counter seen/);
  assert.match(f.screen_error, /1840x1035 CSS pixels at 1 device pixels each .* not 1920x1080 at 1/);
  assert.equal(screenFigures({ ok: false, error: "cannot open the display :9" }).screen_error, "cannot open the display :9");
});

test("a picture scaled but still read keeps its count, with a note", () => {
  const f = screenFigures(probe, { layout: { ...whole, width: 1918, height: 1079 }, width: 1920, height: 1080 });
  assert.equal(f.screen_fps, 58.67);
  assert.equal(f.screen_error, undefined);
  assert.match(f.screen_layout_off, /1918x1079 CSS pixels/);
  assert.equal(screenFigures(probe, { layout: { ...whole, left: 10 }, width: 1920, height: 1080 }).screen_layout_off, undefined);
});

test("the marker is read where the picture's corner is on the screen", () => {
  assert.deepEqual(markerOnScreen(null), { x: 0, y: 0 });
  assert.deepEqual(markerOnScreen(whole), { x: 0, y: 0 });
  // A 480x272 desktop in a window no narrower than 500: centred.
  assert.deepEqual(markerOnScreen({ ...whole, left: 10, top: 0.5 }), { x: 10, y: 1 });
  assert.deepEqual(markerOnScreen({ ...whole, left: 5, top: 3, screen_x: 20, screen_y: 40, device_pixel_ratio: 2 }),
                   { x: 50, y: 86 });
});

test("the FPS cell prints the screen figures only when there are any", () => {
  const r = { ok: true, frames: 900, fps: 59.5, fps_worst_second: 58, latency_p50_ms: 18.4, latency_p99_ms: 50.4 };
  assert.equal(fpsCell(r), "59.5 (58), 18/50 ms");
  assert.equal(fpsCell({ ...r, presented_fps: 59.2, presented_fps_worst_second: 58, ...screenFigures(probe) }),
               "59.5 (58), presented 59.2 (58), on screen 58.7 (55) 34/77 ms, 18/50 ms");
  assert.match(fpsCell({ ...r, ...screenFigures(null, { error: "the present probe gave no result in 68 s" }) }),
               /^59\.5 \(58\), on screen failed \(the present probe gave no result/);
});

test("Firefox's processes by kind", () => {
  assert.equal(firefoxProcessGroup(["/usr/bin/firefox-esr", "--profile", "/p", "--remote-debugging-port=0", ""]), "browser");
  const child = (type) => ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-isForBrowser", "-appDir", "/x", "3", type, ""];
  assert.equal(firefoxProcessGroup(child("tab")), "renderer");
  assert.equal(firefoxProcessGroup(child("gpu")), "gpu");
  for (const type of ["rdd", "socket", "utility", "forkserver"]) assert.equal(firefoxProcessGroup(child(type)), "other");
});

test("each browser has a column, and each column its browser", () => {
  assert.equal(browserColumns.chromium, "voxl-browser");
  for (const [b, column] of Object.entries(browserColumns)) assert.equal(browserOfColumn(column), b);
  assert.equal(browserOfColumn("voxl"), null);
  assert.equal(browserOfColumn("x11vnc"), null);
});
