// The page in Firefox ESR (the stock browser, driven over WebDriver BiDi by
// puppeteer-core): it decodes and shows the desktop, follows a change on it,
// a click and typing reach an X client, the clipboard goes both ways
// without the async clipboard's read, and a refused stream says why (behind
// nginx with its default Host). One voxl, one browser. Skipped
// when Firefox ESR is not installed (VOXL_FIREFOX, default
// /usr/bin/firefox-esr).
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import * as e2e from "./support.mjs";
import { keysymOf, startProbe } from "./input_probe.mjs";
import { startDefaultHostProxy } from "./nginx.mjs";

const missing = fs.existsSync(e2e.FIREFOX) ? false : `firefox-esr is not installed (${e2e.FIREFOX}); scripts/setup installs it`;
const execFileP = promisify(execFile);
const opts = { timeout: e2e.TEST_TIMEOUT_MS, skip: missing };

const RECT = { x: 96, y: 64, w: 256, h: 160 };
const INSET = 12;
const BACKGROUND = "000080";
const FIRST = "ff0000";
const SECOND = "00ff00";

const scope = new e2e.Scope();
let voxl;
let browser;

before(async () => {
  if (missing) return;
  // No sound: headless Firefox ESR 153 may stop running the page's script
  // for good within seconds of the page playing sound (about one run in
  // three here), and hangs starting an AudioContext without a sound server.
  voxl = await e2e.startVoxl(scope, { args: ["--audio-enabled=false"] });
  // The page may write the browser's clipboard without a user's click, and
  // the test read it back without the "Paste" button.
  browser = await e2e.launchFirefox(scope, { prefs: { "dom.events.testing.asyncClipboard": true } });
}, opts);
after(() => scope.close());

// The page's log, for a failure's message.
async function explained(fn) {
  try {
    return await fn();
  } catch (e) {
    e.message += `\npage log:\n${browser.messages.join("\n")}`;
    throw e;
  }
}

function points(rgb) {
  const { x, y, w, h } = RECT;
  return [
    { x: x + w / 2, y: y + h / 2 },
    { x: x + INSET, y: y + INSET },
    { x: x + w - 1 - INSET, y: y + h - 1 - INSET },
  ].map((p) => ({ ...p, rgb }));
}

const outside = [
  { x: RECT.x - INSET, y: RECT.y + RECT.h / 2, rgb: BACKGROUND },
  { x: 8, y: 8, rgb: BACKGROUND },
  { x: e2e.DESKTOP.width - 9, y: e2e.DESKTOP.height - 9, rgb: BACKGROUND },
];

test("Firefox decodes the stream and shows the desktop, and follows it", opts, () =>
  explained(async () => {
    const local = new e2e.Scope();
    try {
      const { page } = browser;
      await e2e.setRootColor(voxl.display, BACKGROUND);
      const rect = await e2e.drawRect(local, voxl.display, RECT, FIRST);
      // The worker's canvas, asked for (?video=0), works too.
      const worker = new URL(voxl.url);
      worker.searchParams.set("video", "0");
      await page.goto(worker.href);
      assert.equal((await e2e.waitStreaming(page)).drawer, "worker, canvas");
      await e2e.waitForColors(page, [...points(FIRST), ...outside]);

      await page.goto(voxl.url);
      const first = await e2e.waitStreaming(page);
      assert.equal(first.state, "streaming");
      assert.equal(first.errors, 0, `decoder errors: ${first.lastError}`);
      assert.match(first.codec ?? "", /^avc1\./);
      // Firefox has no MediaStreamTrackGenerator: the page draws on its own
      // thread, which shows more of what it decodes there than the worker's
      // canvas does.
      assert.equal(first.drawer, "main thread");
      await e2e.waitForColors(page, [...points(FIRST), ...outside]);
      const shown = await e2e.stats(page);
      assert.ok(shown.framesDrawn >= 1, JSON.stringify(shown));
      assert.deepEqual([shown.width, shown.height], [e2e.DESKTOP.width, e2e.DESKTOP.height]);

      await rect.setColor(SECOND);
      await e2e.waitForColors(page, [...points(SECOND), ...outside]);
      const later = await e2e.stats(page);
      assert.ok(later.framesDecoded > shown.framesDecoded, `${later.framesDecoded} frames after ${shown.framesDecoded}`);
      assert.equal(later.errors, 0, `decoder errors: ${later.lastError}`);
    } finally {
      await local.close();
    }
  }),
);

test("in Firefox a click and typing reach an X client", opts, () =>
  explained(async () => {
    const local = new e2e.Scope();
    try {
      const probe = await startProbe(local, voxl.display);
      const { page } = browser;
      await e2e.waitInPage(page, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
      const rect = await page.evaluate(() => {
        const r = document.getElementById("screen").getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width, height: r.height };
      });
      // Firefox's mouse events carry whole CSS pixels (the driver rounds),
      // so aim at a whole pixel inside the desktop pixel (the picture is 1:1).
      const at = (x, y) => ({
        x: Math.floor(rect.left + ((x + 0.5) * rect.width) / e2e.DESKTOP.width),
        y: Math.floor(rect.top + ((y + 0.5) * rect.height) / e2e.DESKTOP.height),
      });
      let p = at(301, 201);
      await page.mouse.click(p.x, p.y);
      p = at(17, 459);
      await page.mouse.click(p.x, p.y, { button: "right" });
      await probe.waitFor(() => probe.buttons().length >= 2, 30_000, "two clicks");
      assert.deepEqual(probe.buttons(), ["button down 1 301 201", "button down 3 17 459"]);

      // Pixels at 1:1: 360 are two notches of --scroll-px-per-notch's 180.
      // (puppeteer's wheel starts where its last move, not click, ended.)
      await page.mouse.move(p.x, p.y);
      await page.puppeteer.mouse.wheel({ deltaY: 360 });
      await probe.waitFor(() => probe.buttons().length >= 4, 30_000, "two notches down");
      assert.deepEqual(probe.buttons().slice(2), ["button down 5 17 459", "button down 5 17 459"]);

      // The click focused the page's keyboard sink.
      const typed = "Hello, voxl 1!";
      await page.keyboard.type(typed);
      const want = [...typed].map(keysymOf);
      await probe.waitFor(() => probe.keysyms().length >= want.length, 30_000, "the typed keys");
      assert.deepEqual(probe.keysyms(), want);
      await probe.waitFor(
        (l) => l.filter((x) => x.startsWith("key up")).length === l.filter((x) => x.startsWith("key down")).length,
        30_000,
        "every key released",
      );

      // The async clipboard's read is not there to rely on in Firefox: the
      // page says so, for the panel's clipboard box.
      const clip = await page.evaluate(() => window.voxl.interaction().clipboard);
      assert.equal(clip.asyncAvailable, false, JSON.stringify(clip));
    } finally {
      await local.close();
    }
  }),
);

test("in Firefox the clipboard goes both ways without the async read", opts, () =>
  explained(async () => {
    const local = new e2e.Scope();
    try {
      const probe = await startProbe(local, voxl.display);
      const { page } = browser;
      const env = e2e.displayEnv(voxl.display);
      // X copies: the page writes it into the browser's clipboard.
      const fromX = `copied on X ✓ ${Date.now()}`;
      const xclip = spawn("xclip", ["-quiet", "-selection", "clipboard", "-i"], { env, stdio: ["pipe", "ignore", "ignore"] });
      local.defer(() => {
        if (xclip.exitCode === null && xclip.signalCode === null) xclip.kill("SIGKILL");
      });
      xclip.stdin.end(fromX);
      await e2e.waitInPage(page, (t) => window.voxl.interaction().clipboard.desktopText === t, fromX, {
        what: "the desktop's clipboard in the page",
      });
      await e2e.waitInPage(page, () => !window.voxl.interaction().clipboard.pending, null, {
        what: "the browser's clipboard written",
      });
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fromX);

      // The viewer copied elsewhere and pastes: the paste event carries the
      // text, and the key waits for it.
      const fromPage = `pasted in Firefox ✓ ${Date.now()}`;
      await page.evaluate((t) => navigator.clipboard.writeText(t), fromPage);
      const keys = page.puppeteer.keyboard;
      await keys.down("Control");
      await keys.press("v");
      await keys.up("Control");
      await probe.waitFor(() => probe.keysyms().includes(0x76), 30_000, "Ctrl+V");
      const { stdout } = await execFileP("xclip", ["-selection", "clipboard", "-o"], { env, timeout: 20_000 });
      assert.equal(stdout, fromPage);
    } finally {
      await local.close();
    }
  }),
);

// Firefox hides a refused upgrade's status as Chromium does; the page asks
// ws-check (a same-origin POST, which Firefox sends with its Origin) and
// says what to fix. nginx passes the upgrade but not Host.
test("behind nginx with its default Host, Firefox's page says which header to pass", opts, () =>
  explained(async () => {
    const local = new e2e.Scope();
    try {
      const proxy = await startDefaultHostProxy(local, voxl.port);
      const { page } = browser;
      await page.goto(`${proxy.origin}/`);
      await e2e.waitInPage(
        page,
        () => /refused this page's address/.test(document.querySelector("#status .title")?.textContent ?? ""),
        null,
        { what: "the page to explain the refusal" },
      );
      const detail = await page.evaluate(() => document.querySelector("#status .detail").textContent);
      assert.match(detail, /proxy_set_header Host \$host;/, detail);
      assert.equal((await e2e.stats(page)).state, "error");
    } finally {
      await local.close();
    }
  }),
);
