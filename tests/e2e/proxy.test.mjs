// voxl behind Debian's nginx as a TLS reverse proxy at a sub-path
// (https://127.0.0.1:<port>/desktops/7/), set up as the snippet in
// docs/deployment.md's Reverse proxies section
// says: the page signs in with ?token=, streams over wss through the proxy,
// takes input, and /screenshot answers under the prefix; reached without
// its trailing slash (a proxy without the snippet's redirect) the page adds
// the slash and streams. voxl trusts the
// proxy's X-Forwarded-* headers (VOXL_TRUSTED_PROXIES); without that trust
// the browser's https Origin does not match and the stream is refused.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";
import { get, startNginx } from "./nginx.mjs";
import { startProbe } from "./input_probe.mjs";

const TOKEN = "proxy-test-token-0123456789";
const PREFIX = "/desktops/7/";
const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
let voxl;
let proxy; // { port, base }

// What each location does: the WebSocket upgrade, the forwarding headers,
// no buffering, long timeouts (as docs/deployment.md's snippet).
const PROXYING = `
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      client_max_body_size 0;`;

// The README's locations: the page at /desktops/7/, and /desktops/8
// reaching the page without the redirect to the slash (the page must add
// the slash before it loads anything).
async function startProxy(local, dir, upstreamPort) {
  const { port } = await startNginx(local, dir, {
    tls: true,
    readyPath: "/desktops/7",
    readyStatus: 301,
    locations: `
    location = /desktops/7 { return 301 /desktops/7/; }
    location /desktops/7/ {
      proxy_pass http://127.0.0.1:${upstreamPort}/;
${PROXYING}
    }
    location /desktops/8 {
      rewrite ^/desktops/8/?(.*)$ /$1 break;
      proxy_pass http://127.0.0.1:${upstreamPort};
${PROXYING}
    }`,
  });
  return { port, base: `https://127.0.0.1:${port}${PREFIX}` };
}

before(async () => {
  voxl = await e2e.startVoxl(scope, { env: { VOXL_AUTH_TOKEN: TOKEN, VOXL_TRUSTED_PROXIES: "127.0.0.1,::1" } });
  await e2e.setRootColor(voxl.display, "ff00ff");
  proxy = await startProxy(scope, await e2e.tempDir(scope, "nginx"), voxl.port);
}, opts);
after(() => scope.close());

test("the page signs in, streams and takes input through the proxy at a sub-path", opts, async () => {
  const local = new e2e.Scope();
  try {
    const { page, messages } = await e2e.launchBrowser(local, { ignoreHTTPSErrors: true });
    const res = await page.goto(`${proxy.base}?token=${TOKEN}`);
    assert.equal(res.status(), 200, messages.join("\n"));
    // The 303 stayed under the prefix and took the token out of the address.
    assert.equal(page.url(), proxy.base);
    const cookies = await page.context().cookies();
    const cookie = cookies.find((c) => c.name === "voxl_token");
    assert.ok(cookie, "the token cookie was set");
    assert.equal(cookie.path, "/desktops/7");
    assert.equal(cookie.secure, true, "the proxy said https: the cookie is a Secure one");
    await e2e.waitStreaming(page);
    await e2e.waitForColors(page, [{ x: 320, y: 240, rgb: "ff00ff" }]);
    const socket = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    assert.ok(socket.some((u) => u.startsWith(`${proxy.base}app.js`)), socket.join("\n"));

    const probe = await startProbe(local, voxl.display);
    await e2e.waitInPage(page, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
    const rect = await page.evaluate(() => {
      const r = document.getElementById("screen").getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    });
    await page.mouse.click(rect.left + (301.5 * rect.width) / e2e.DESKTOP.width, rect.top + (201.5 * rect.height) / e2e.DESKTOP.height);
    await probe.waitFor(() => probe.buttons().length >= 1, 30_000, "the click");
    assert.deepEqual(probe.buttons(), ["button down 1 301 201"]);
  } finally {
    await local.close();
  }
});

test("the page reached without its trailing slash adds it and streams", opts, async () => {
  const local = new e2e.Scope();
  try {
    const { page, messages } = await e2e.launchBrowser(local, { ignoreHTTPSErrors: true });
    const base = `https://127.0.0.1:${proxy.port}/desktops/8`;
    // Signed in at the folder, as a link with the token would be.
    assert.equal((await page.goto(`${base}/?token=${TOKEN}`)).status(), 200, messages.join("\n"));
    await page.goto(`${base}?stats`);
    await e2e.waitStreaming(page);
    assert.equal(page.url(), `${base}/?stats`);
  } finally {
    await local.close();
  }
});

test("/screenshot and the probes answer under the prefix", opts, async () => {
  await e2e.setRootColor(voxl.display, "00ff00");
  const shot = await get(`${proxy.base}screenshot`, { Authorization: `Bearer ${TOKEN}` });
  assert.equal(shot.status, 200, shot.body.toString());
  assert.equal(shot.headers["content-type"], "image/png");
  const png = e2e.decodePng(shot.body);
  assert.equal(png.width, e2e.DESKTOP.width);
  assert.equal(png.height, e2e.DESKTOP.height);
  assert.deepEqual(png.rgb(320, 240), [0, 255, 0]);
  assert.equal((await get(`${proxy.base}screenshot`)).status, 401);
  const health = await get(`${proxy.base}healthz`);
  assert.equal(health.status, 200);
  assert.equal(health.body.toString(), "ok\n");
});

test("a WebSocket with the proxy's https Origin is refused unless voxl trusts the proxy", opts, async () => {
  const local = new e2e.Scope();
  try {
    const untrusting = await e2e.startVoxl(local, { env: { VOXL_AUTH_TOKEN: TOKEN } });
    const upgrade = (port, extra = {}) =>
      e2e.wsUpgrade({
        port,
        origin: `https://127.0.0.1:${proxy.port}`,
        host: `127.0.0.1:${proxy.port}`,
        extra: { Authorization: `Bearer ${TOKEN}`, ...extra },
      });
    const forwarded = { "X-Forwarded-Proto": "https" };
    assert.equal((await upgrade(untrusting.port, forwarded)).status, 403);
    assert.equal((await upgrade(voxl.port)).status, 403, "without X-Forwarded-Proto the Origin is not this server's");
    assert.equal((await upgrade(voxl.port, forwarded)).status, 101);
  } finally {
    await local.close();
  }
});
