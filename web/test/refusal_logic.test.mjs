// What the page says when its stream does not open: the answer of ws-check
// turned into a title, the reason and the fix, and whether to retry.
//
//   node --test web/test/refusal_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { streamCheckUrl, verdictFromCheck } = await load("src/protocol/stream_refusal.ts");

test("ws-check is beside the page under any prefix, without the page's query", () => {
  assert.equal(streamCheckUrl({ href: "http://host:6901/" }), "http://host:6901/ws-check");
  assert.equal(streamCheckUrl({ href: "https://host/desktops/7/?stats#x" }), "https://host/desktops/7/ws-check");
});

test("a refused origin or credential is final and says the fix", () => {
  const origin = verdictFromCheck(403, {
    ok: false,
    refused: "origin",
    error: "voxl refused the stream: this page's origin (https://p:8443) is not the address voxl was reached at",
    fix: "pass the Host header (nginx: `proxy_set_header Host $host;`)",
  });
  assert.equal(origin.final, true);
  assert.equal(origin.title, "voxl refused this page's address");
  assert.equal(origin.lines.length, 2);
  assert.match(origin.lines[1], /proxy_set_header Host/);
  const password = verdictFromCheck(401, { ok: false, refused: "credentials", error: "wrong password", fix: "Reload" });
  assert.equal(password.final, true);
  assert.equal(password.title, "voxl refused the sign-in");
});

test("a cap or a back-off is retried after what the server asked", () => {
  const busy = verdictFromCheck(503, { error: "this address has 128 connections open", limit: "x", retry_after: 5 });
  assert.equal(busy.final, false);
  assert.equal(busy.retryMs, 5000);
  const throttled = verdictFromCheck(429, { error: "too many", retry_after: 99999 });
  assert.equal(throttled.final, false);
  assert.equal(throttled.retryMs, 3600 * 1000, "bounded");
});

test("an accepted check blames the upgrade's path; anything else is not voxl's word", () => {
  const upgrade = verdictFromCheck(200, { ok: true });
  assert.equal(upgrade.final, false);
  assert.match(upgrade.lines.join(" "), /proxy_set_header Upgrade/);
  assert.equal(verdictFromCheck(502, null), null, "a proxy's own error page");
  assert.equal(verdictFromCheck(404, "not json"), null);
  assert.equal(verdictFromCheck(403, {}), null, "no reason given");
  const long = verdictFromCheck(403, { error: "x".repeat(5000), refused: "host" });
  assert.ok(long.lines[0].length <= 600, "a hostile answer is cut");
});
