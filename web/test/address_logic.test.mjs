// Where the page finds its stream and its helper scripts: always beside the
// page, so the client works under any path prefix a reverse proxy gives it.
//
//   node --test web/test/address_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { streamUrl } = await load("src/protocol/connection.ts");
const { RENDER_WORKER_URL } = await load("src/video/render_messages.ts");
const { WORKLET_URL } = await load("src/audio/jitter_buffer.ts");

test("the stream is ws beside the page, with the page's scheme made a WebSocket one", () => {
  assert.equal(streamUrl({ href: "http://host:6901/" }), "ws://host:6901/ws");
  assert.equal(streamUrl({ href: "https://host/" }), "wss://host/ws");
  assert.equal(streamUrl({ href: "https://host/desktops/7/" }), "wss://host/desktops/7/ws");
  assert.equal(streamUrl({ href: "https://host/desktops/7/index.html" }), "wss://host/desktops/7/ws");
  assert.equal(streamUrl({ href: "http://[::1]:8080/a/b/" }), "ws://[::1]:8080/a/b/ws");
});

test("the page's query and fragment stay with the page", () => {
  assert.equal(streamUrl({ href: "https://host/d/?stats&touch=trackpad#x" }), "wss://host/d/ws");
});

test("the worker and the worklet are named relative to the page", () => {
  for (const name of [RENDER_WORKER_URL, WORKLET_URL]) {
    assert.ok(!name.startsWith("/"), `${name} must not be absolute`);
    assert.equal(new URL(name, "https://host/desktops/7/").pathname, `/desktops/7/${name}`);
  }
});
