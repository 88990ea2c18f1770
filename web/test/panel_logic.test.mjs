// Pure logic behind the page's control panel, without a browser: the
// quality rule, the name rule, the 1:1 layout and the parsing of the
// settings, viewers and hello messages. The TypeScript is bundled in memory
// with the repository's esbuild.
//
//   node --test web/test/panel_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { quality } = await load("src/panel/quality.ts");
const { parseServerMessage } = await load("src/protocol/messages.ts");
const { fitNative } = await load("src/view/fit.ts");
const { cleanName, kbpsChoices, appliedText, KBPS_VALUES } = await load("src/panel/settings_rules.ts");

test("name: what the server refuses is stripped, and lone surrogates, which make JSON it cannot read", () => {
  assert.equal(cleanName("  Ann  "), "Ann");
  assert.equal(cleanName("A\u0000n\u001fn\u007f"), "Ann");
  assert.equal(cleanName("A\u0080n\u009fn"), "Ann");
  assert.equal(cleanName("A\u2028n\u2029n"), "Ann");
  assert.equal(cleanName("A\ud800n\udc00n"), "Ann");
  assert.equal(cleanName("\udc00\ud83d"), "");
  // A pair is one character and stays; so do other scripts and marks.
  assert.equal(cleanName("Ann \ud83d\ude00"), "Ann \u{1f600}");
  assert.equal(cleanName("Zoë Łukasz 李"), "Zoë Łukasz 李");
  // At most 40 characters (code points), a pair counted once.
  assert.equal(cleanName("x".repeat(50)), "x".repeat(40));
  assert.equal([...cleanName("\u{1f600}".repeat(50))].length, 40);
  // What JSON.stringify makes of the result is valid UTF-8 after encoding.
  const s = JSON.stringify({ name: cleanName("a\ud800b") });
  assert.equal(new TextDecoder("utf-8", { fatal: true }).decode(new TextEncoder().encode(s)), s);
  assert.doesNotMatch(s, /\\ud8/);
});

test("bitrate choices: none below the server's minimum; all without one", () => {
  assert.deepEqual(kbpsChoices(undefined), KBPS_VALUES);
  assert.deepEqual(kbpsChoices(0), KBPS_VALUES);
  assert.deepEqual(kbpsChoices(1000), [50000, 20000, 10000, 5000, 2000, 1000]);
  assert.deepEqual(kbpsChoices(800), [50000, 20000, 10000, 5000, 2000, 1000]);
});

test("applied settings: the value the server applied, its minimum, and view-only viewers said so", () => {
  const m = { type: "settings", max_fps: 30, max_kbps: 5000, name: "Ann", server_max_fps: 60, server_max_kbps: 20000 };
  assert.equal(appliedText(m, false), "Applied: 30 fps, 5 Mbit/s, name “Ann” (server: up to 60 fps, 20 Mbit/s).");
  assert.match(appliedText({ ...m, max_kbps: 800, server_min_kbps: 800 }, false), /, 800 kbit\/s \(the server's minimum\),/);
  assert.match(appliedText({ ...m, max_kbps: 0, max_fps: 0, name: "" }, false), /^Applied: no frame rate cap, no bitrate cap \(/);
  assert.match(appliedText({ ...m, max_kbps: 0 }, true), /not applied to a view-only viewer/);
});

test("applied settings: the motion choice, the viewer's or else the server's", () => {
  const m = { type: "settings", max_fps: 0, max_kbps: 0, name: "", server_max_fps: 60, server_max_kbps: 0 };
  assert.equal(appliedText({ ...m, motion: "smooth", server_motion: "auto" }, false),
               "Applied: no frame rate cap, no bitrate cap, motion smooth (server: up to 60 fps).");
  assert.match(appliedText({ ...m, motion: null, server_motion: "auto" }, false), /\(server: up to 60 fps, motion automatic\)/);
  assert.doesNotMatch(appliedText(m, false), /motion/, "an older server says nothing of it");
});

test("quality: latency and round trip decide, the connection's state first", () => {
  assert.equal(quality("connecting", 10, 10), "unknown");
  assert.equal(quality("streaming", null, null), "unknown");
  assert.equal(quality("reconnecting", 10, 10), "poor");
  assert.equal(quality("error", null, null), "poor");
  assert.equal(quality("streaming", 40, 20), "good");
  assert.equal(quality("streaming", 100, 100), "good");
  assert.equal(quality("streaming", 101, 20), "fair");
  assert.equal(quality("streaming", 40, 180), "fair");
  assert.equal(quality("streaming", 301, 20), "poor");
  assert.equal(quality("connected", null, 251), "poor");
  assert.equal(quality("connected", null, 30), "good");
});

test("1:1 layout: one stream pixel per device pixel, centred while it fits", () => {
  assert.deepEqual(fitNative(640, 480, 1280, 800, 1), { scale: 1, left: 320, top: 160, width: 640, height: 480, pixelated: true });
  // Larger than the window: from the top left corner, the stage scrolls.
  assert.deepEqual(fitNative(640, 480, 400, 300, 1), { scale: 1, left: 0, top: 0, width: 640, height: 480, pixelated: true });
  // A HiDPI screen: half as many CSS pixels.
  assert.deepEqual(fitNative(640, 480, 2560, 1600, 2), { scale: 1, left: 480, top: 280, width: 320, height: 240, pixelated: true });
  assert.equal(fitNative(0, 480, 400, 300, 1).width, 0);
});

test("hello: id and files are optional and typed", () => {
  assert.deepEqual(parseServerMessage('{"type":"hello","version":1,"server":"voxl"}'), { type: "hello", version: 1, server: "voxl" });
  assert.equal(parseServerMessage('{"type":"hello","version":1,"server":"voxl","id":3,"files":false}').id, 3);
  assert.equal(parseServerMessage('{"type":"hello","version":1,"id":"3"}'), null);
  assert.equal(parseServerMessage('{"type":"hello","version":1,"id":0}'), null);
  assert.equal(parseServerMessage('{"type":"hello","version":1,"id":1.5}'), null);
  assert.equal(parseServerMessage('{"type":"hello","version":1,"files":1}'), null);
});

test("settings: every field present and typed", () => {
  const ok = { type: "settings", max_fps: 30, max_kbps: 0, name: "Ann", server_max_fps: 60, server_max_kbps: 20000 };
  assert.deepEqual(parseServerMessage(JSON.stringify(ok)), ok);
  for (const k of ["max_fps", "max_kbps", "name", "server_max_fps", "server_max_kbps"]) {
    const { [k]: _, ...without } = ok;
    assert.equal(parseServerMessage(JSON.stringify(without)), null, `without ${k}`);
  }
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, name: 7 })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, max_fps: "30" })), null);
  // server_min_kbps is optional, a number where present.
  assert.deepEqual(parseServerMessage(JSON.stringify({ ...ok, server_min_kbps: 100 })), { ...ok, server_min_kbps: 100 });
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, server_min_kbps: "100" })), null);
  // motion (null: no choice) and server_motion are optional, one of three where present.
  const motion = { ...ok, motion: null, server_motion: "auto" };
  assert.deepEqual(parseServerMessage(JSON.stringify(motion)), motion);
  assert.deepEqual(parseServerMessage(JSON.stringify({ ...ok, motion: "sharp" })), { ...ok, motion: "sharp" });
  for (const bad of [{ motion: "fast" }, { motion: 1 }, { server_motion: null }, { server_motion: "Smooth" }])
    assert.equal(parseServerMessage(JSON.stringify({ ...ok, ...bad })), null, JSON.stringify(bad));
});

test("viewers: the list and its entries are checked", () => {
  const ok = {
    type: "viewers",
    you: 2,
    holder: 0,
    timeout_s: 10,
    viewers: [
      { id: 1, role: "full", name: "", requesting: false },
      { id: 2, role: "view-only", name: "Bo", requesting: true },
    ],
    more: 0,
  };
  assert.deepEqual(parseServerMessage(JSON.stringify(ok)), ok);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, you: 0 })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, viewers: {} })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, more: undefined })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, viewers: [{ ...ok.viewers[0], role: "admin" }] })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, viewers: [{ ...ok.viewers[0], requesting: 1 }] })), null);
  assert.equal(parseServerMessage(JSON.stringify({ ...ok, viewers: [null] })), null);
});
