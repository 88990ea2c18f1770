// WebSocket upgrades to /ws are refused from a foreign Origin unless it is
// listed in --allowed-origins; the page's own origin is accepted.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import * as e2e from "./support.mjs";

const EVIL = "http://evil.example";
const opts = { timeout: e2e.TEST_TIMEOUT_MS };

function assertAccepted(res) {
  assert.equal(res.status, 101);
  assert.equal(res.headers.upgrade?.toLowerCase(), "websocket");
  assert.equal(res.headers["sec-websocket-accept"], e2e.expectedAccept(res.key));
}

describe("same origin only (default)", () => {
  const scope = new e2e.Scope();
  let voxl;
  before(async () => {
    voxl = await e2e.startVoxl(scope);
  }, opts);
  after(() => scope.close());

  test("a foreign Origin gets 403", opts, async () => {
    const res = await e2e.wsUpgrade({ port: voxl.port, origin: EVIL });
    assert.equal(res.status, 403);
  });

  test("the page's own origin gets 101", opts, async () => {
    assert.equal(voxl.origin, `http://127.0.0.1:${voxl.port}`);
    assertAccepted(await e2e.wsUpgrade({ port: voxl.port, origin: voxl.origin }));
  });

  test("the same host over the other scheme or port is foreign", opts, async () => {
    assert.equal((await e2e.wsUpgrade({ port: voxl.port, origin: `https://127.0.0.1:${voxl.port}` })).status, 403);
    assert.equal((await e2e.wsUpgrade({ port: voxl.port, origin: `http://127.0.0.1:${voxl.port + 1}` })).status, 403);
  });
});

describe("--allowed-origins", () => {
  const scope = new e2e.Scope();
  let voxl;
  before(async () => {
    voxl = await e2e.startVoxl(scope, { args: [`--allowed-origins=${EVIL}`] });
  }, opts);
  after(() => scope.close());

  test("a listed origin gets 101", opts, async () => {
    assertAccepted(await e2e.wsUpgrade({ port: voxl.port, origin: EVIL }));
  });

  test("the page's own origin still gets 101", opts, async () => {
    assertAccepted(await e2e.wsUpgrade({ port: voxl.port, origin: voxl.origin }));
  });

  test("an unlisted origin gets 403", opts, async () => {
    assert.equal((await e2e.wsUpgrade({ port: voxl.port, origin: "http://other.example" })).status, 403);
  });
});
