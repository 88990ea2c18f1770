// Pure logic behind the page's control panel, without a browser: the
// quality rule, the name rule, the 1:1 layout and the parsing of the
// settings, viewers and hello messages. The TypeScript is bundled in memory
// with the repository's esbuild.
//
//   node --test web/test/panel_logic.test.mjs
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const esbuild = createRequire(path.join(web, "package.json"))("esbuild");

async function load(entry) {
  const out = esbuild.buildSync({ entryPoints: [path.join(web, entry)], bundle: true, format: "esm", write: false });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

const { quality } = await load("src/panel/quality.ts");
const { parseServerMessage } = await load("src/protocol.ts");
const { fitNative } = await load("src/fit.ts");

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
