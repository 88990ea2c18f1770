// voxl over TLS with a self-made certificate: the page loads over https and
// streams over wss.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
let voxl;

before(async () => {
  const { key, cert } = await e2e.selfSignedCert(await e2e.tempDir(scope, "tls"));
  voxl = await e2e.startVoxl(scope, { args: ["--enable-https", "--https-cert", cert, "--https-key", key] });
  await e2e.setRootColor(voxl.display, "ff00ff");
}, opts);
after(() => scope.close());

test("the page streams over https", opts, async () => {
  assert.match(voxl.url, /^https:\/\/127\.0\.0\.1:\d+\/$/);
  const { page } = await e2e.launchBrowser(scope, { ignoreHTTPSErrors: true });
  const res = await page.goto(voxl.url);
  assert.equal(res.status(), 200);
  assert.equal(await page.evaluate(() => window.isSecureContext), true);
  const s = await e2e.waitStreaming(page, { frames: 1 });
  assert.equal(s.width, e2e.DESKTOP.width);
  assert.equal(s.height, e2e.DESKTOP.height);
  await e2e.waitForColors(page, [{ x: 320, y: 240, rgb: "ff00ff" }]);
});

test("a foreign Origin is refused over TLS too", opts, async () => {
  const ws = await e2e.wsUpgrade({ port: voxl.port, origin: "https://evil.example", tls: true });
  assert.equal(ws.status, 403);
  const own = await e2e.wsUpgrade({ port: voxl.port, origin: voxl.origin, tls: true });
  assert.equal(own.status, 101);
});
