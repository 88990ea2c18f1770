// With --enable-basic-auth nothing is served without the password, guessing
// it is slowed down, and a browser that has it streams.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const USER = "voxl";
const PASSWORD = "correct-horse-7";
const opts = { timeout: e2e.TEST_TIMEOUT_MS };

const scope = new e2e.Scope();
let voxl;

before(async () => {
  voxl = await e2e.startVoxl(scope, { args: ["--enable-basic-auth", `--basic-auth-password=${PASSWORD}`] });
  await e2e.setRootColor(voxl.display, "00ff00");
}, opts);
after(() => scope.close());

function get(port, path, auth) {
  return new Promise((resolve, reject) => {
    const headers = auth ? { Authorization: `Basic ${Buffer.from(auth).toString("base64")}` } : {};
    const req = http.get({ host: "127.0.0.1", port, path, headers, agent: false, timeout: 20_000 }, (res) => {
      res.resume();
      res.once("end", () => resolve(res));
    });
    req.once("timeout", () => req.destroy(new Error(`no answer to GET ${path}`)));
    req.once("error", reject);
  });
}

test("without credentials the page gets 401", opts, async () => {
  const local = new e2e.Scope();
  try {
    const { page } = await e2e.launchBrowser(local);
    const served = [];
    page.on("response", (r) => {
      if (r.status() !== 401) served.push(`${r.status()} ${r.url()}`);
    });
    const sockets = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    const answer = page.waitForResponse((r) => r.url() === voxl.url, { timeout: e2e.FRAME_TIMEOUT_MS });
    // Headless Chromium ends a navigation that gets a 401 it cannot answer
    // with net::ERR_INVALID_AUTH_CREDENTIALS instead of showing the page, so
    // the status is read from the response itself.
    const navigation = page.goto(voxl.url).catch((e) => e);
    const res = await answer;
    await navigation;
    assert.equal(res.status(), 401);
    assert.match((await res.allHeaders())["www-authenticate"] ?? "", /^Basic /);
    assert.deepEqual(served, [], "nothing may be served");
    assert.deepEqual(sockets, [], "no WebSocket may be opened");
  } finally {
    await local.close();
  }
});

test("wrong or missing credentials get 401 with a challenge", opts, async () => {
  // A missing credential is not a failed guess; four wrong ones stay under
  // the back-off's threshold, and the right one then clears the address.
  const tries = [
    [undefined, "/"], [undefined, "/app.js"], [undefined, "/stats"],
    [`${USER}:wrong`, "/"], [`${USER}:wrong`, "/app.js"], [`other:${PASSWORD}`, "/stats"],
  ];
  for (const [auth, path] of tries) {
    const res = await get(voxl.port, path, auth);
    assert.equal(res.statusCode, 401, `GET ${path} as ${auth}`);
    assert.match(res.headers["www-authenticate"] ?? "", /^Basic /);
  }
  for (const auth of [undefined, `other:${PASSWORD}`]) {
    const ws = await e2e.wsUpgrade({ port: voxl.port, origin: voxl.origin, auth });
    assert.equal(ws.status, 401, `upgrade as ${auth}`);
  }
  assert.equal((await get(voxl.port, "/", `${USER}:${PASSWORD}`)).statusCode, 200);
});

test("guessing is slowed down: after five wrong passwords the address waits", opts, async () => {
  const local = new e2e.Scope();
  try {
    const own = await e2e.startVoxl(local, { args: ["--enable-basic-auth", `--basic-auth-password=${PASSWORD}`] });
    for (let i = 0; i < 5; i++) assert.equal((await get(own.port, "/", `${USER}:wrong${i}`)).statusCode, 401);
    const blocked = await get(own.port, "/", `${USER}:wrong5`);
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.headers["retry-after"] ?? "", /^[0-9]+$/);
  } finally {
    await local.close();
  }
});

test("with httpCredentials the page streams", opts, async () => {
  const local = new e2e.Scope();
  try {
    const { page } = await e2e.launchBrowser(local, { httpCredentials: { username: USER, password: PASSWORD } });
    const res = await page.goto(voxl.url);
    assert.equal(res.status(), 200);
    const s = await e2e.waitStreaming(page, { frames: 1 });
    assert.equal(s.width, e2e.DESKTOP.width);
    await e2e.waitForColors(page, [{ x: 320, y: 240, rgb: "00ff00" }]);
  } finally {
    await local.close();
  }
});
