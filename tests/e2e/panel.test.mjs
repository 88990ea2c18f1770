// The page's control panel in Chromium at a desktop viewport: opened and
// closed by keyboard (keys typed in it never reach the desktop), the
// clipboard box both ways without the browser's clipboard, fullscreen, the
// stats overlay, the scaling mode 1:1, this viewer's settings and the
// control handover (hello's "id" is required), and screenshots at
// a phone's, a laptop's and a 4K monitor's size with the closed panel
// clear of the picture (and a thin handle where the picture fills the
// window). Screenshots go to VOXL_ARTIFACTS.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import * as e2e from "./support.mjs";
import { keysymOf, startProbe } from "./input_probe.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const execFileP = promisify(execFile);
const ARTIFACTS = process.env.VOXL_ARTIFACTS || path.join(os.tmpdir(), "voxl-artifacts", "web");
const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

const scope = new e2e.Scope();
let voxl;
let browser;
let page;

async function openPage(p, url = voxl.url) {
  await p.goto(url);
  await e2e.waitStreaming(p);
  await e2e.waitInPage(p, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
}

before(async () => {
  // Without file transfer, so the panel's Files entry must stay hidden
  // (files.test.mjs covers the Files panel).
  voxl = await e2e.startVoxl(scope, { args: ["--file-transfers=none"] });
  browser = await e2e.launchBrowser(scope, { viewport: DESKTOP_VIEWPORT });
  page = browser.page;
  await openPage(page);
  await fs.promises.mkdir(ARTIFACTS, { recursive: true });
}, opts);
after(() => scope.close());

const isOpen = (p) => p.evaluate(() => window.voxl.panel().open);

async function waitOpen(p, open) {
  await e2e.waitInPage(p, (o) => window.voxl.panel().open === o, open, { what: open ? "the panel open" : "the panel closed" });
}

async function openPanel(p) {
  if (!(await isOpen(p))) await p.click("#panel-toggle");
  await waitOpen(p, true);
}

async function closePanel(p) {
  if (await isOpen(p)) await p.click("#panel-close");
  await waitOpen(p, false);
}

// The picture's box and every visible box of the panel, in CSS pixels.
function boxes(p) {
  return p.evaluate(() => {
    const r = (e) => {
      const b = e.getBoundingClientRect();
      return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, id: e.id || e.tagName };
    };
    const parts = [document.getElementById("panel-root"), ...document.querySelectorAll("#panel-root *")]
      .filter((e) => e.getClientRects().length > 0)
      .map(r)
      .filter((b) => b.right > b.left && b.bottom > b.top);
    return { screen: r(document.getElementById("screen")), panel: parts, drawer: r(document.getElementById("panel")) };
  });
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// xclip owning the X clipboard with `text` until an application takes it.
function xclipOwner(local, text) {
  const child = spawn("xclip", ["-quiet", "-selection", "clipboard", "-i"], {
    env: e2e.displayEnv(voxl.display),
    stdio: ["pipe", "ignore", "ignore"],
  });
  child.stdin.end(text);
  local.defer(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return child;
}

async function xclipRead() {
  const { stdout } = await execFileP("xclip", ["-selection", "clipboard", "-o"], {
    env: e2e.displayEnv(voxl.display),
    timeout: 20_000,
  });
  return stdout;
}

test("the keyboard opens and closes the panel; keys typed in it stay out of the desktop", opts, async () => {
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    assert.equal(await isOpen(page), false, "the panel starts closed");
    // What this server and this device do not have stays out of the panel.
    const absent = await page.evaluate(() => ({
      files: document.getElementById("panel-files").hidden,
      touch: document.getElementById("panel-touch").hidden,
    }));
    // This server offers no file transfer (--file-transfers=none: hello's files is false).
    assert.deepEqual(absent, { files: true, touch: true });
    // The picture has the keyboard; the page's shortcut opens the panel.
    await page.mouse.click(640, 400);
    await page.keyboard.press("Control+Alt+Shift+KeyM");
    await waitOpen(page, true);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "panel-close", "focus in the panel");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.getElementById("panel").contains(document.activeElement)), true);
    // Shift+Tab from the first control wraps round to the last.
    await page.focus("#panel-close");
    await page.keyboard.press("Shift+Tab");
    assert.equal(await page.evaluate(() => document.getElementById("panel").contains(document.activeElement)), true);

    await page.focus("#panel-clipboard");
    await page.keyboard.type("zqx");
    await page.keyboard.press("Escape");
    await waitOpen(page, false);
    // Closing gives the keyboard back to the picture: the next key is the desktop's.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "keyboard input for the remote desktop");
    await page.keyboard.type("j");
    await probe.waitFor(() => probe.keysyms().includes(keysymOf("j")), 30_000, "j on the desktop");
    for (const ch of "zqx") assert.ok(!probe.keysyms().includes(keysymOf(ch)), `${ch} typed in the panel reached the desktop`);

    // Enter on the focused toggle opens it; Escape closes it again.
    await page.focus("#panel-toggle");
    await page.keyboard.press("Enter");
    await waitOpen(page, true);
    await page.keyboard.press("Escape");
    await waitOpen(page, false);
    // The shortcut closes it too.
    await page.keyboard.press("Control+Alt+Shift+KeyM");
    await waitOpen(page, true);
    await page.keyboard.press("Control+Alt+Shift+KeyM");
    await waitOpen(page, false);
    assert.ok(!probe.keysyms().includes(keysymOf("m")), "the panel's shortcut reached the desktop");
  } finally {
    await local.close();
  }
});

test("the clipboard box shows what X copied and sends typed text to X", opts, async () => {
  const local = new e2e.Scope();
  try {
    // No clipboard permission: the box is the only way in.
    await openPanel(page);
    const fromX = `copied on X ✓ ${Date.now()}`;
    xclipOwner(local, fromX);
    await e2e.waitInPage(page, (t) => document.getElementById("panel-clipboard").value === t, fromX, {
      what: "the desktop's copy in the clipboard box",
    });
    const fromPage = `typed in the box ✓ ${Date.now()}`;
    await page.fill("#panel-clipboard", fromPage);
    await page.click("#panel-clipboard-send");
    await e2e.waitInPage(page, () => /Sent/.test(document.getElementById("panel-clipboard-note").textContent), null, {
      what: "the box's text sent",
    });
    const deadline = Date.now() + 30_000;
    let got = "";
    while ((got = await xclipRead().catch(() => "")) !== fromPage && Date.now() < deadline) {
      // X tells no one when the selection changes hands; ask again.
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(got, fromPage);
    await closePanel(page);
  } finally {
    await local.close();
  }
});

test("fullscreen, the stats overlay and the scaling mode 1:1", opts, async () => {
  await openPanel(page);
  await page.click("#panel-fullscreen");
  // document.fullscreenElement is set before fullscreenchange fires, and the
  // button follows the event: wait for both.
  await e2e.waitInPage(page, () => document.fullscreenElement !== null
    && /Leave fullscreen/.test(document.getElementById("panel-fullscreen").textContent), null, { what: "fullscreen" });
  assert.equal(await page.getAttribute("#panel-fullscreen", "aria-pressed"), "true");
  await page.click("#panel-fullscreen");
  await e2e.waitInPage(page, () => document.fullscreenElement === null
    && !/Leave/.test(document.getElementById("panel-fullscreen").textContent), null, { what: "fullscreen left" });
  assert.equal(await page.getAttribute("#panel-fullscreen", "aria-pressed"), "false");
  // The keyboard lock switch is the viewer's, kept in the browser.
  await page.uncheck("#panel-keyboard-lock");
  assert.equal(await page.evaluate(() => localStorage.getItem("voxl.keyboardLock")), "0");
  await page.check("#panel-keyboard-lock");
  assert.equal(await page.evaluate(() => localStorage.getItem("voxl.keyboardLock")), "1");

  await page.check("#panel-stats");
  await e2e.waitInPage(page, () => /fps/.test(document.getElementById("stats")?.textContent ?? ""), null, { what: "the stats overlay" });
  await page.uncheck("#panel-stats");
  await e2e.waitInPage(page, () => document.getElementById("stats") === null, null, { what: "the stats overlay gone" });

  // 640x480 in a 400x300 window: scaled down to fit, then 1:1 with scrolling.
  await page.setViewportSize({ width: 400, height: 300 });
  const width = () => page.evaluate(() => document.getElementById("screen").getBoundingClientRect().width);
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 400, null, { what: "fit" });
  await page.check("#panel-scaling-native");
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 640, null, { what: "1:1" });
  const stage = await page.evaluate(() => {
    const s = document.getElementById("stage");
    return { sw: s.scrollWidth, cw: s.clientWidth, sh: s.scrollHeight, ch: s.clientHeight };
  });
  assert.ok(stage.sw > stage.cw && stage.sh > stage.ch, `the stage scrolls: ${JSON.stringify(stage)}`);
  assert.equal((await page.evaluate(() => window.voxl.resize())).layout.mode, "native");
  await page.check("#panel-scaling-fit");
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 400, null, { what: "fit again" });
  assert.equal(await width(), 400);
  await page.setViewportSize(DESKTOP_VIEWPORT);
  await closePanel(page);

  // ?stats in the address still starts the overlay, with the switch on.
  const withStats = new URL(voxl.url);
  withStats.searchParams.set("stats", "");
  await openPage(page, withStats.href);
  await e2e.waitInPage(page, () => /fps/.test(document.getElementById("stats")?.textContent ?? ""), null, { what: "?stats" });
  assert.equal(await page.evaluate(() => document.getElementById("panel-stats").checked), true);
  await openPage(page);
});

test("this viewer's settings go to the server and its answer shows", opts, async () => {
  const id = await page.evaluate(() => window.voxl.panel().id);
  assert.ok(Number.isInteger(id) && id > 0, `hello carries this viewer's id: ${id}`);
  await openPanel(page);
  await page.selectOption("#panel-max-fps", "30");
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.max_fps === 30, null, { what: "max_fps 30 applied" });
  await page.selectOption("#panel-max-kbps", "5000");
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.max_kbps === 5000, null, { what: "max_kbps 5000 applied" });
  await page.fill("#panel-name", "Alice");
  await page.press("#panel-name", "Enter");
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.name === "Alice", null, { what: "the name applied" });
  assert.match(await page.textContent("#panel-settings-applied"), /30 fps, 5 Mbit\/s, name “Alice”/);
  assert.equal(await page.evaluate(() => localStorage.getItem("voxl.name")), "Alice");
  // Before any choice the motion select shows the server's --motion.
  assert.equal(await page.evaluate(() => document.getElementById("panel-motion").value), "auto");
  await page.selectOption("#panel-motion", "smooth");
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.motion === "smooth", null, { what: "motion smooth applied" });
  assert.match(await page.textContent("#panel-settings-applied"), /name “Alice”, motion smooth \(/);
  assert.equal(await page.evaluate(() => localStorage.getItem("voxl.motion")), "smooth");
  // A lone surrogate (no valid JSON for the server) and a line separator
  // (refused by it) are stripped before the name goes.
  await page.evaluate(() => {
    const n = document.getElementById("panel-name");
    n.value = "Bo\ud800b\u2028";
    n.dispatchEvent(new Event("change"));
  });
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.name === "Bob", null, { what: "the cleaned name applied" });
  await e2e.waitInPage(
    page,
    (id) => window.voxl.panel().viewers?.viewers.some((v) => v.id === id && v.name === "Bob"),
    id,
    { what: "the name in the viewers list" },
  );
  await page.selectOption("#panel-max-fps", "0");
  await page.selectOption("#panel-max-kbps", "0");
  await e2e.waitInPage(page, () => window.voxl.panel().applied?.max_fps === 0 && window.voxl.panel().applied?.max_kbps === 0, null, {
    what: "the caps lifted",
  });
  await closePanel(page);
});

test("control moves from one viewer to another by request and grant", opts, async () => {
  const idA = await page.evaluate(() => window.voxl.panel().id);
  assert.ok(Number.isInteger(idA) && idA > 0, `hello carries this viewer's id: ${idA}`);
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    const other = await browser.context.newPage();
    local.defer(() => other.close());
    await openPage(other);
    const idB = await other.evaluate(() => window.voxl.panel().id);
    // A types first and so takes control.
    await page.bringToFront();
    await page.mouse.click(640, 400);
    await page.keyboard.type("a");
    await probe.waitFor(() => probe.keysyms().includes(keysymOf("a")), 30_000, "a from the first viewer");
    for (const p of [page, other]) {
      await e2e.waitInPage(p, (h) => window.voxl.panel().viewers?.holder === h, idA, { what: "the first viewer holding control" });
    }
    await other.bringToFront();
    await openPanel(other);
    assert.match(await other.textContent("#panel-viewers"), /has control/);
    await other.click("#panel-control-request");
    await page.bringToFront();
    await openPanel(page);
    // The holder grants; on a machine slow enough for --control-timeout to
    // pass first, control moves by itself and there is nothing to grant.
    await e2e.waitInPage(
      page,
      (b) => document.getElementById(`panel-grant-${b}`) !== null || window.voxl.panel().viewers?.holder === b,
      idB,
      { what: "the request seen by the holder" },
    );
    if (await page.evaluate((b) => window.voxl.panel().viewers?.holder !== b, idB)) {
      assert.match(await page.textContent("#panel-viewers"), /asks for control/);
      await page.click(`#panel-grant-${idB}`);
    }
    for (const p of [page, other]) {
      await e2e.waitInPage(p, (h) => window.voxl.panel().viewers?.holder === h, idB, { what: "the second viewer holding control" });
    }
    await closePanel(page);
    // A's keys are refused now, and the panel says why; B's arrive.
    await page.mouse.click(640, 400);
    await page.keyboard.type("k");
    // The note names the holder when they have a name (this browser's pages share "Bob").
    await e2e.waitInPage(page, () => /(Another viewer|Bob) has control: request it/.test(document.getElementById("panel-control-note").textContent), null, {
      what: "the refusal shown",
    });
    // Its clipboard box sends nothing the server would drop, and says why.
    assert.equal(await page.evaluate(() => document.getElementById("panel-clipboard-send").disabled), true);
    assert.match(await page.textContent("#panel-clipboard-note"), /Another viewer has control/);
    assert.notEqual(await page.evaluate(() => window.voxl.interaction().refused), null);
    await other.bringToFront();
    await closePanel(other);
    await other.mouse.click(640, 400);
    await other.keyboard.type("b");
    await probe.waitFor(() => probe.keysyms().includes(keysymOf("b")), 30_000, "b from the second viewer");
    assert.ok(!probe.keysyms().includes(keysymOf("k")), "the first viewer's key reached the desktop without control");
    // B releases; nobody holds control.
    await openPanel(other);
    await other.click("#panel-control-release");
    await e2e.waitInPage(other, () => window.voxl.panel().viewers?.holder === 0, null, { what: "control released" });
    // A takes it back by typing: its refusal is over and Send is on again.
    await page.bringToFront();
    await page.mouse.click(640, 400);
    await page.keyboard.type("z");
    await e2e.waitInPage(page, (h) => window.voxl.panel().viewers?.holder === h, idA, { what: "the first viewer holding control again" });
    await e2e.waitInPage(page, () => window.voxl.interaction().refused === null, null, { what: "the refusal cleared" });
    assert.equal(await page.evaluate(() => document.getElementById("panel-clipboard-send").disabled), false);
  } finally {
    await local.close();
  }
});

test("screenshots at 360x640, 1280x800 and 3840x2160; the closed panel leaves the picture clear", opts, async () => {
  const local = new e2e.Scope();
  try {
    // Something to see: a checkerboard on a blue desktop.
    await e2e.setRootColor(voxl.display, "2050a0");
    await e2e.drawRect(local, voxl.display, { x: 80, y: 60, w: 480, h: 360 }, "e0c040", { checker: 40 });
    for (const size of [{ width: 360, height: 640 }, DESKTOP_VIEWPORT, { width: 3840, height: 2160 }]) {
      const tag = `${size.width}x${size.height}`;
      await page.setViewportSize(size);
      const scale = Math.min(1, size.width / e2e.DESKTOP.width, size.height / e2e.DESKTOP.height);
      const want = Math.round(e2e.DESKTOP.width * scale);
      await e2e.waitInPage(page, (w) => Math.round(document.getElementById("screen").getBoundingClientRect().width) === w, want, {
        what: `the picture ${want} px wide at ${tag}`,
      });
      await e2e.waitForColors(page, [{ x: 100, y: 80, rgb: "e0c040" }, { x: 20, y: 20, rgb: "2050a0" }]);
      await closePanel(page);
      const closed = await boxes(page);
      for (const b of closed.panel) {
        assert.ok(!overlaps(b, closed.screen), `at ${tag} the closed panel's ${b.id} ${JSON.stringify(b)} covers the picture ${JSON.stringify(closed.screen)}`);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `panel-closed-${tag}.png`) });
      await openPanel(page);
      const open = await boxes(page);
      if (size.width <= 640) {
        // A phone: a bottom sheet across the window.
        assert.equal(Math.round(open.drawer.bottom), size.height, `the sheet at the bottom at ${tag}`);
        assert.equal(Math.round(open.drawer.right - open.drawer.left), size.width, `the sheet full width at ${tag}`);
      } else {
        assert.ok(open.drawer.right - open.drawer.left < size.width / 2, `a side panel at ${tag}`);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `panel-open-${tag}.png`) });
      if (size === DESKTOP_VIEWPORT) {
        // The same in the dark scheme the system may ask for.
        await page.emulateMedia({ colorScheme: "dark" });
        await page.screenshot({ path: path.join(ARTIFACTS, `panel-open-${tag}-dark.png`) });
        await page.emulateMedia({ colorScheme: "light" });
      }
      await page.keyboard.press("Escape");
      await waitOpen(page, false);
    }
    // A window the picture fills: the toggle can only sit over it, so it
    // becomes a thin handle at the middle of the top edge.
    await page.setViewportSize(e2e.DESKTOP);
    await page.mouse.move(10, 400);
    await e2e.waitInPage(page, () => document.getElementById("panel-toggle").classList.contains("compact"), null, {
      what: "the handle over a picture that fills the window",
    });
    const tab = await page.evaluate(() => {
      const t = document.getElementById("panel-toggle");
      const b = t.getBoundingClientRect();
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      return { w: b.width / rem, h: b.height / rem, offCentre: (b.left + b.right) / 2 - window.innerWidth / 2, top: b.top };
    });
    assert.ok(tab.w <= 3 && tab.h <= 0.5 && Math.abs(tab.offCentre) <= 1 && tab.top === 0, `the handle: ${JSON.stringify(tab)}`);
    await page.screenshot({ path: path.join(ARTIFACTS, "panel-closed-640x480.png") });
    await page.setViewportSize(DESKTOP_VIEWPORT);
    await e2e.waitInPage(page, () => !document.getElementById("panel-toggle").classList.contains("compact"), null, {
      what: "the toggle outside the picture again",
    });
  } finally {
    await local.close();
  }
});
