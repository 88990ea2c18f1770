// Recorded sessions played back in Chromium: a viewer watches the desktop
// turn red, green, then blue while an agent acts once (in the green), with
// segments of five seconds so the session spans several; then the admins'
// page lists the session, plays it, jumps to the agent's action on the
// timeline and shows green there, red at the start, and plays through to
// the blue end at 8x.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
const CENTRE = { x: e2e.DESKTOP.width / 2, y: e2e.DESKTOP.height / 2 };
let voxl;

function request(url, { method = "GET", body = null } = {}) {
  const headers = body === null ? {} : { "Content-Type": "application/json" };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, timeout: 30_000 }, (res) => {
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

// The colour under the centre of the player's current picture.
async function playerColour(page) {
  return page.evaluate(() => {
    const v = document.getElementById("player");
    const c = document.createElement("canvas");
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    const g = c.getContext("2d");
    g.drawImage(v, 0, 0);
    return Array.from(g.getImageData(c.width >> 1, c.height >> 1, 1, 1).data.slice(0, 3));
  });
}

function near(got, hex, what) {
  const want = e2e.hexToRgb(hex);
  assert.ok(got.every((v, i) => Math.abs(v - want[i]) <= e2e.COLOR_TOLERANCE), `${what}: ${got} is not #${hex}`);
}

async function seekTo(page, selector) {
  const t = await page.$eval(selector, (b) => b.dataset.tMs);
  await page.click(selector);
  await e2e.waitInPage(page, (t) => document.body.dataset.seeked === t && document.body.dataset.state === "ready", t,
                       { what: `the player at ${t} ms` });
  return Number(t);
}

before(async () => {
  const dir = await e2e.tempDir(scope, "sessions");
  voxl = await e2e.startVoxl(scope, { args: ["--record-sessions", dir, "--record-sessions-segment-seconds", "5"] });
}, opts);
after(() => scope.close());

test("a recorded session plays back, and an event on its timeline shows its moment", opts, async () => {
  await e2e.setRootColor(voxl.display, "cc2222"); // the first picture the session holds
  const { page } = await e2e.launchBrowser(scope);
  await page.goto(voxl.url);
  await e2e.waitStreaming(page);
  const show = async (rgb, ms) => {
    await e2e.setRootColor(voxl.display, rgb);
    await e2e.waitForColors(page, [{ ...CENTRE, rgb }]);
    await new Promise((r) => setTimeout(r, ms)); // the colour's stretch of the session
  };
  await show("cc2222", 6000);
  await show("22cc22", 1000);
  const act = await request(new URL("input", voxl.url), { method: "POST", body: '{"type":"move","x":3,"y":3}' });
  assert.equal(act.status, 200, act.body);
  await new Promise((r) => setTimeout(r, 2000));
  await show("2222cc", 2500);
  await page.goto("about:blank"); // the viewer leaves: the session ends

  // The last segment is sealed on the disk thread after the viewer left.
  let list = null;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    list = JSON.parse((await request(new URL("sessions/list", voxl.url))).body);
    if (list.sessions.length === 1 && !list.sessions[0].live) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(list.sessions.length, 1, JSON.stringify(list));
  assert.equal(list.sessions[0].live, false, JSON.stringify(list));

  const { page: admin } = await e2e.launchBrowser(scope);
  await admin.goto(new URL("sessions.html", voxl.url).href);
  await e2e.waitInPage(admin, () => document.querySelector("tr.session"), null, { what: "the session in the list" });
  await admin.click("tr.session");
  await e2e.waitInPage(admin, () => document.body.dataset.state === "ready", null, { what: "the player ready" });
  const segments = await admin.$$eval(".timeline-spans .span", (s) => s.length);
  assert.ok(segments >= 2, `${segments} segment(s)`);

  const atAction = await seekTo(admin, 'button.event[data-event="request"]');
  assert.ok(atAction > 6000, `the action at ${atAction} ms`);
  near(await playerColour(admin), "22cc22", "at the agent's action");
  await seekTo(admin, 'button.event[data-event="connect"]');
  near(await playerColour(admin), "cc2222", "at the start");

  await admin.selectOption("#speed", "8");
  await admin.click("#play");
  const total = await admin.evaluate(() => document.querySelector("#clock").textContent);
  await e2e.waitInPage(admin, () => document.getElementById("player").ended, null,
                       { what: `the end of the session (${total})`, timeout: 60_000 });
  near(await playerColour(admin), "2222cc", "at the end");
  assert.equal(await admin.evaluate(() => document.getElementById("player").playbackRate), 8);
});
