// When voxl refuses the page's stream, the page says what was refused and
// how to fix it, instead of "cannot reach the server": behind nginx with its
// default Host (the upstream's, so the page's Origin is foreign to voxl),
// after the password changed, and over the connection cap (503, retried
// until there is room).
import assert from "node:assert/strict";
import net from "node:net";
import { after, test } from "node:test";

import * as e2e from "./support.mjs";
import { startDefaultHostProxy } from "./nginx.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
after(() => scope.close());

// The status overlay's title and text, once its title matches `title`.
async function waitOverlay(page, title, what) {
  await e2e.waitInPage(
    page,
    (want) => new RegExp(want).test(document.querySelector("#status .title")?.textContent ?? ""),
    title.source,
    { what },
  );
  return page.evaluate(() => ({
    title: document.querySelector("#status .title").textContent,
    detail: document.querySelector("#status .detail").textContent,
  }));
}

// WebSocket attempts the page makes from now on.
function countSockets(page) {
  const seen = { count: 0 };
  page.on("websocket", () => seen.count++);
  return seen;
}

test("behind nginx with its default Host the page names the header to pass, and stops", opts, async () => {
  const local = new e2e.Scope();
  try {
    const voxl = await e2e.startVoxl(local);
    const proxy = await startDefaultHostProxy(local, voxl.port);
    const { page, messages } = await e2e.launchBrowser(local);
    const sockets = countSockets(page);
    assert.equal((await page.goto(`${proxy.origin}/`)).status(), 200, messages.join("\n"));
    const shown = await waitOverlay(page, /refused this page's address/, "the page to explain the refusal");
    assert.match(shown.detail, new RegExp(`this page's origin \\(${proxy.origin}\\)`), shown.detail);
    assert.match(shown.detail, /proxy_set_header Host \$host;/, shown.detail);
    assert.match(shown.detail, new RegExp(`--allowed-origins=${proxy.origin}`), shown.detail);
    assert.ok(voxl.stderr().includes("WebSocket from a foreign origin"), voxl.stderr());
    const state = await e2e.stats(page);
    assert.equal(state.state, "error");
    // It does not retry what retrying cannot fix: no attempt follows within
    // several of the backoff's first periods (0.5, 1, 2 s).
    const attempts = sockets.count;
    await page.waitForTimeout(4000);
    assert.equal(sockets.count, attempts, "no new WebSocket after the refusal");
    await e2e.waitInPage(page, () => window.voxl.stats().state === "error", undefined, { what: "the page to stay" });
  } finally {
    await local.close();
  }
});

test("after the password changed the page says the sign-in was refused", opts, async () => {
  const local = new e2e.Scope();
  try {
    const port = await e2e.freePort();
    const first = await e2e.startVoxl(local, { port, args: ["--enable-basic-auth", "--basic-auth-password=first-secret-1"] });
    const { page, messages } = await e2e.launchBrowser(local, {
      httpCredentials: { username: "voxl", password: "first-secret-1" },
    });
    assert.equal((await page.goto(first.url)).status(), 200, messages.join("\n"));
    await e2e.waitStreaming(page);
    await first.stop();
    await e2e.startVoxl(local, { port, args: ["--enable-basic-auth", "--basic-auth-password=second-secret-2"] });
    const shown = await waitOverlay(page, /refused the sign-in/, "the page to say the password was refused");
    assert.match(shown.detail, /wrong user name or password/, shown.detail);
    assert.match(shown.detail, /Reload the page to sign in again/, shown.detail);
    assert.equal((await e2e.stats(page)).state, "error");
  } finally {
    await local.close();
  }
});

// A TCP forwarder between the browser and voxl that the test can hold
// (connections wait before reaching voxl) and cut (every connection so far
// ends), so the page can be made to reconnect exactly when voxl is full.
async function startForwarder(scope, upstreamPort) {
  const live = new Set();
  let held = [];
  let holding = false;
  const connect = (client) => {
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      live.add(s);
      s.on("close", () => live.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  };
  const server = net.createServer((client) => {
    client.on("error", () => {});
    if (holding) {
      client.pause();
      held.push(client);
    } else {
      connect(client);
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  scope.defer(() => {
    for (const s of live) s.destroy();
    for (const s of held) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    hold() {
      holding = true;
    },
    heldCount: () => held.length,
    cut() {
      for (const s of live) s.destroy();
    },
    release() {
      holding = false;
      const waiting = held;
      held = [];
      for (const c of waiting) {
        connect(c);
        c.resume();
      }
    },
  };
}

// A raw request to voxl; resolves with what came back before `ms` (or the close).
function rawRequest(port, target, ms) {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    let got = "";
    const done = () => resolve({ socket: s, got });
    const timer = setTimeout(done, ms);
    s.on("data", (d) => (got += d));
    s.on("close", () => {
      clearTimeout(timer);
      done();
    });
    s.on("error", () => {});
    s.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  });
}

test("over the connection cap the page shows the 503's reason, retries and streams once there is room", opts, async () => {
  const local = new e2e.Scope();
  try {
    const voxl = await e2e.startVoxl(local, { args: ["--max-connections-per-address=12"] });
    const forwarder = await startForwarder(local, voxl.port);
    const { page, messages } = await e2e.launchBrowser(local);
    assert.equal((await page.goto(forwarder.url)).status(), 200, messages.join("\n"));
    await e2e.waitStreaming(page);

    // The page's next attempts wait in the forwarder while voxl fills up.
    forwarder.hold();
    forwarder.cut();
    await e2e.waitInPage(page, () => window.voxl.stats().state === "reconnecting", undefined, {
      what: "the page to lose its stream",
    });
    // Long polls hold voxl's connections from this address until a plain
    // request is answered 503: voxl is full.
    const holders = [];
    local.defer(() => holders.forEach((s) => s.destroy()));
    let refusal = "";
    for (let i = 0; i < 40 && !refusal; i++) {
      const holder = net.connect(voxl.port, "127.0.0.1");
      holder.on("error", () => {});
      holders.push(holder);
      await new Promise((resolve) => holder.once("connect", resolve));
      holder.write(`GET /wait?change&region=0,0,1,1&timeout=300000 HTTP/1.1\r\nHost: 127.0.0.1:${voxl.port}\r\n\r\n`);
      const check = await rawRequest(voxl.port, "/healthz", 30_000);
      if (check.got.startsWith("HTTP/1.1 503")) refusal = check.got;
    }
    assert.match(refusal, /^HTTP\/1\.1 503/, "voxl filled up");
    assert.match(refusal, /Retry-After: 5/i, refusal);
    assert.match(refusal, /"limit":"--max-connections-per-address"/, refusal);

    forwarder.release();
    const shown = await waitOverlay(page, /Reconnecting/, "the page to retry");
    await e2e.waitInPage(
      page,
      () => /voxl is busy/.test(document.querySelector("#status .detail")?.textContent ?? ""),
      undefined,
      { what: "the page to say voxl is busy" },
    );
    const busy = await page.evaluate(() => document.querySelector("#status .detail").textContent);
    assert.match(busy, /--max-connections-per-address/, busy);
    assert.ok(shown);
    assert.ok(voxl.stderr().includes("(--max-connections-per-address)"), voxl.stderr());

    // Room again: the page gets in by itself.
    holders.forEach((s) => s.destroy());
    await e2e.waitStreaming(page, { connections: 2, timeout: e2e.RECONNECT_TIMEOUT_MS });
  } finally {
    await local.close();
  }
});
