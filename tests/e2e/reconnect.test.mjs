// The page outlives the server: when voxl stops and a new one starts on the
// same port, the page reconnects by itself and streams the new display.
import assert from "node:assert/strict";
import { after, test } from "node:test";

import * as e2e from "./support.mjs";

const scope = new e2e.Scope();
after(() => scope.close());

const CENTRE = { x: e2e.DESKTOP.width / 2, y: e2e.DESKTOP.height / 2 };

test("the page recovers after voxl restarts on the same port", { timeout: e2e.TEST_TIMEOUT_MS }, async () => {
  const port = await e2e.freePort();
  const first = await e2e.startVoxl(scope, { port });
  assert.equal(first.port, port);
  await e2e.setRootColor(first.display, "ff0000");

  const { page } = await e2e.launchBrowser(scope);
  await page.goto(first.url);
  await e2e.waitForColors(page, [{ ...CENTRE, rgb: "ff0000" }]);
  const before = await e2e.waitStreaming(page);
  assert.equal(before.connections, 1);

  const ended = await first.stop();
  assert.deepEqual(ended, { code: 0, signal: null, killed: false }, `voxl's exit on SIGTERM\n${first.stderr()}`);
  await e2e.waitInPage(page, () => window.voxl.stats().state === "reconnecting", undefined, {
    what: "the page to notice the server is gone",
  });

  const second = await e2e.startVoxl(scope, { port });
  assert.equal(second.port, port);
  // Another colour, so that the picture is known to come from the new display.
  await e2e.setRootColor(second.display, "0000ff");

  // The client retries with a backoff of up to 8 s.
  const after = await e2e.waitStreaming(page, {
    frames: before.framesDecoded + 1,
    connections: 2,
    timeout: e2e.RECONNECT_TIMEOUT_MS,
  });
  assert.ok(after.connected);
  await e2e.waitForColors(page, [{ ...CENTRE, rgb: "0000ff" }]);
  const last = await e2e.stats(page);
  assert.equal(last.state, "streaming");
  assert.equal(last.connections, 2);
  assert.equal(last.errors, 0);
});
