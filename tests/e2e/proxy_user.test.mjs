// Identity from a trusted proxy: Debian's nginx signs people in (its own
// auth_basic here, as an OIDC or SAML proxy would) and names them in
// X-Forwarded-User; voxl believes the header only from the proxy's address
// (nginx connects from 127.0.0.2, the only trusted one) and gives each the
// rights the users file grants them. A name the file does not have is
// refused; a client cannot name itself, past the proxy or around it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import * as e2e from "./support.mjs";
import { startNginx } from "./nginx.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
const PASSWORDS = { alice: "alice-at-the-proxy", bob: "bob-at-the-proxy", mallory: "mallory-at-the-proxy" };
let voxl;
let proxy;

function request(url, { method = "GET", headers = {}, body = null, user = null } = {}) {
  const h = { ...headers };
  if (user) h.Authorization = `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString("base64")}`;
  if (body !== null) h["Content-Type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: h, agent: false, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on("error", reject);
    if (body !== null) req.write(body);
    req.end();
  });
}

const CLICK = JSON.stringify({ type: "click", x: 10, y: 10 });

before(async () => {
  const dir = await e2e.tempDir(scope, "proxy-user");
  // voxl's users: no passwords here, the proxy signs them in.
  const users = path.join(dir, "users");
  fs.writeFileSync(users, "alice:!:view,control\nbob:!:view\n", { mode: 0o600 });
  voxl = await e2e.startVoxl(scope, {
    args: ["--users-file", users, "--trusted-proxies", "127.0.0.2", "--proxy-user-header", "X-Forwarded-User"],
  });
  // nginx's own password file, mallory included.
  const lines = [];
  for (const [name, password] of Object.entries(PASSWORDS)) {
    const { stdout } = await promisify(execFile)("openssl", ["passwd", "-apr1", password]);
    lines.push(`${name}:${stdout.trim()}`);
  }
  const htpasswd = path.join(dir, "htpasswd");
  fs.writeFileSync(htpasswd, lines.join("\n") + "\n");
  proxy = await startNginx(scope, await e2e.tempDir(scope, "nginx"), {
    readyStatus: 401,
    locations: `
    location / {
      auth_basic "voxl";
      auth_basic_user_file ${htpasswd};
      proxy_pass http://127.0.0.1:${voxl.port};
      proxy_bind 127.0.0.2;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-User $remote_user;
      proxy_set_header Authorization "";
    }`,
  });
}, opts);
after(() => scope.close());

test("the proxy's users get the rights the users file gives them", opts, async () => {
  assert.equal((await request(`${proxy.origin}/`, { user: "alice" })).status, 200);
  assert.equal((await request(`${proxy.origin}/`, { user: "bob" })).status, 200);
  const aliceClicks = await request(`${proxy.origin}/input`, { method: "POST", body: CLICK, user: "alice" });
  assert.equal(aliceClicks.status, 200, aliceClicks.body);
  const bobClicks = await request(`${proxy.origin}/input`, { method: "POST", body: CLICK, user: "bob" });
  assert.equal(bobClicks.status, 403, bobClicks.body);
  assert.match(bobClicks.body, /bob cannot send input: the users file does not give them the control right/);
});

test("a name the users file does not have is refused, saying so", opts, async () => {
  const r = await request(`${proxy.origin}/`, { user: "mallory" });
  assert.equal(r.status, 403);
  assert.match(r.body, /'mallory'.*not in the users file/);
});

test("a client cannot name itself, through the proxy or around it", opts, async () => {
  // Through nginx as bob, claiming to be alice: nginx replaces the header.
  const claimed = await request(`${proxy.origin}/input`, {
    method: "POST",
    body: CLICK,
    user: "bob",
    headers: { "X-Forwarded-User": "alice" },
  });
  assert.equal(claimed.status, 403, claimed.body);
  // Straight to voxl from 127.0.0.1, which is not a trusted proxy.
  const direct = await request(`${voxl.origin}/input`, {
    method: "POST",
    body: CLICK,
    headers: { "X-Forwarded-User": "alice" },
  });
  assert.equal(direct.status, 401, direct.body);
});

test("the page signs in at the proxy and streams as that user", opts, async () => {
  const local = new e2e.Scope();
  try {
    const { page, messages } = await e2e.launchBrowser(local, {
      httpCredentials: { username: "alice", password: PASSWORDS.alice },
    });
    const res = await page.goto(`${proxy.origin}/`);
    assert.equal(res.status(), 200, messages.join("\n"));
    await e2e.waitStreaming(page);
    assert.match(voxl.stderr(), /viewer \d+ connected as alice/);
    // The panel's Viewers list names her as she signed in.
    await e2e.waitInPage(page, () => /alice \(you\)/.test(document.getElementById("panel-viewers")?.textContent ?? ""), null, {
      what: "alice in the panel's Viewers",
    });
  } finally {
    await local.close();
  }
});
