// Input, clipboard and view-only through a real browser: what is typed and
// clicked on the page reaches an X client on the display; the clipboard
// goes both ways; a view-only viewer cannot type.
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import * as e2e from "./support.mjs";
import { keysymOf, startProbe } from "./input_probe.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const execFileP = promisify(execFile);

const scope = new e2e.Scope();
let voxl;

before(async () => {
  voxl = await e2e.startVoxl(scope);
}, opts);
after(() => scope.close());

async function openViewer(local, options = {}) {
  const browser = await e2e.launchBrowser(local, options);
  await browser.page.goto(voxl.url);
  await e2e.waitStreaming(browser.page);
  await e2e.waitInPage(browser.page, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
  return browser;
}

// xclip owning the X clipboard with `text` until an application takes it.
// It takes the clipboard whenever it gets there, from any owner before it:
// wait until it owns it (voxl or the probe tells) before anything else copies.
function xclipOwner(local, display, text) {
  const child = spawn("xclip", ["-quiet", "-selection", "clipboard", "-i"], {
    env: e2e.displayEnv(display),
    stdio: ["pipe", "ignore", "ignore"],
  });
  child.stdin.end(text);
  local.defer(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return child;
}

async function xclipRead(display) {
  const { stdout } = await execFileP("xclip", ["-selection", "clipboard", "-o"], {
    env: e2e.displayEnv(display),
    timeout: 20_000,
  });
  return stdout;
}

// The browser's clipboard, read and written by the page.
function pageClipboard(page) {
  return e2e.withTimeout(page.evaluate(() => navigator.clipboard.readText()), 30_000, "the page did not read its clipboard");
}

function writePageClipboard(page, text) {
  return e2e.withTimeout(
    page.evaluate((t) => navigator.clipboard.writeText(t), text),
    30_000,
    "the page did not write its clipboard",
  );
}

test("text typed on the page arrives in an X client with the right keysyms", opts, async () => {
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    const { page } = await openViewer(local);
    const typed = "Hello, voxl 1!";
    await page.keyboard.type(typed);
    const want = [...typed].map(keysymOf);
    await probe.waitFor(() => probe.keysyms().length >= want.length, 30_000, "the typed keys");
    assert.deepEqual(probe.keysyms(), want);
    // Every key went up again.
    await probe.waitFor((l) => l.filter((x) => x.startsWith("key up")).length === l.filter((x) => x.startsWith("key down")).length);

    // Input method text and characters no US keymap has, typed as text.
    await page.evaluate(() => {
      const sink = document.querySelector("textarea");
      sink.dispatchEvent(new CompositionEvent("compositionend", { data: "привет" }));
    });
    await page.keyboard.insertText("é😀");
    const more = [..."привет", ..."é😀"].map(keysymOf);
    await probe.waitFor(() => probe.keysyms().length >= want.length + more.length, 30_000, "the text");
    assert.deepEqual(probe.keysyms().slice(want.length), more);
  } finally {
    await local.close();
  }
});

test("a click on a scaled canvas lands on the right desktop pixel; the wheel scrolls in notches", opts, async () => {
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    const { page } = await openViewer(local);
    // 640x480 shown at 400x300: 0.625 CSS pixels per desktop pixel.
    await page.setViewportSize({ width: 400, height: 300 });
    await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 400, null, {
      what: "the canvas at 400 px",
    });
    const rect = await page.evaluate(() => {
      const r = document.getElementById("screen").getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    });
    const at = (x, y) => ({
      x: rect.left + ((x + 0.5) * rect.width) / e2e.DESKTOP.width,
      y: rect.top + ((y + 0.5) * rect.height) / e2e.DESKTOP.height,
    });
    let p = at(301, 201);
    await page.mouse.click(p.x, p.y);
    p = at(17, 459);
    await page.mouse.click(p.x, p.y, { button: "right" });
    p = at(639, 0);
    await page.mouse.click(p.x, p.y, { button: "middle" });
    await probe.waitFor(() => probe.buttons().length >= 3, 30_000, "three clicks");
    assert.deepEqual(probe.buttons(), ["button down 1 301 201", "button down 3 17 459", "button down 2 639 0"]);

    // 360 CSS pixels are 576 desktop pixels: three notches of 180, 36 left over.
    await page.mouse.wheel(0, 360);
    await probe.waitFor(() => probe.buttons().length >= 6, 30_000, "three notches");
    await page.mouse.wheel(0, 144);  // 230.4 more: 266.4 -> one more notch
    await probe.waitFor(() => probe.buttons().length >= 7, 30_000, "a fourth notch");
    assert.deepEqual(
      probe.buttons().slice(3).map((l) => l.split(" ")[2]),
      ["5", "5", "5", "5"],
    );
  } finally {
    await local.close();
  }
});

test("copy on X and paste in the page, and back", opts, async () => {
  const local = new e2e.Scope();
  try {
    const probe = await startProbe(local, voxl.display);
    const { context, page } = await openViewer(local);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: voxl.origin });
    // Chromium lets the page read by itself (Firefox does not: e2e.firefox).
    await e2e.waitInPage(page, () => window.voxl.interaction().clipboard.asyncAvailable === true, null, {
      what: "the async clipboard readable",
    });

    const fromX = `copied on X ✓ ${Date.now()}`;
    xclipOwner(local, voxl.display, fromX);
    await e2e.waitInPage(page, (t) => window.voxl.interaction().clipboard.desktopText === t, fromX, {
      what: "the desktop's clipboard in the page",
    });
    await e2e.waitInPage(page, () => !window.voxl.interaction().clipboard.pending, null, {
      what: "the browser's clipboard written",
    });
    assert.equal(await pageClipboard(page), fromX);

    const fromPage = `pasted from the page ✓ ${Date.now()}`;
    await writePageClipboard(page, fromPage);
    await page.keyboard.press("Control+v");
    // The clipboard goes before the key: once the application sees V, the
    // desktop's clipboard holds the page's text.
    await probe.waitFor(() => probe.keysyms().includes(0x76), 30_000, "Ctrl+V");
    assert.equal(await xclipRead(voxl.display), fromPage);
  } finally {
    await local.close();
  }
});

test("the clipboard settings are enforced", opts, async () => {
  const local = new e2e.Scope();
  try {
    const off = await e2e.startVoxl(local, { args: ["--enable-clipboard=in"] });
    // Out is off, so this voxl never says who owns the X clipboard: the probe does.
    const probe = await startProbe(local, off.display, { clipboard: true });
    const browser = await e2e.launchBrowser(local);
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: off.origin });
    await browser.page.goto(off.url);
    await e2e.waitStreaming(browser.page);
    await e2e.waitInPage(browser.page, () => window.voxl.interaction()?.clipboard.mode === "in", null, { what: "mode in" });
    // Out is off: what X copies never reaches the page. xclip owns the
    // clipboard before the page pastes; had voxl taken it first, xclip would
    // take it back and keep it.
    const owner = xclipOwner(local, off.display, "secret on X");
    const taken = () => probe.clipboardOwners().find((w) => w !== "0x0");
    await probe.waitFor(() => taken() !== undefined, 30_000, "xclip owning the X clipboard");
    const xclipWindow = taken();
    // In is on: the page's text reaches X, and taking the selection ends xclip.
    await writePageClipboard(browser.page, "page to X");
    await browser.page.keyboard.press("Control+v");
    try {
      await probe.waitFor(
        () => probe.clipboardOwners().slice(1).some((w) => w !== xclipWindow && w !== "0x0"),
        30_000,
        `voxl taking the X clipboard from xclip (window ${xclipWindow})`,
      );
    } catch (e) {
      e.message += `\npage clipboard: ${JSON.stringify(await browser.page.evaluate(() => window.voxl.interaction().clipboard))}`;
      throw e;
    }
    await e2e.waitChildExit(owner, 30_000, "xclip did not exit once it lost the clipboard");
    assert.equal(await xclipRead(off.display), "page to X");
    assert.equal(await browser.page.evaluate(() => window.voxl.interaction().clipboard.desktopText), null);

    // X copies something else, which this page never hears of; pasting the
    // same page text again must still put it on X.
    const owners = probe.clipboardOwners();
    const voxlWindow = owners[owners.length - 1];
    const again = xclipOwner(local, off.display, "X again");
    const seen = owners.length;
    await probe.waitFor(
      () => probe.clipboardOwners().slice(seen).some((w) => w !== voxlWindow && w !== "0x0"),
      30_000,
      "xclip taking the X clipboard from voxl",
    );
    const afterXclip = probe.clipboardOwners().length;
    await browser.page.keyboard.press("Control+v");
    await probe.waitFor(
      () => probe.clipboardOwners().slice(afterXclip).includes(voxlWindow),
      30_000,
      "voxl taking the X clipboard back for the second paste",
    );
    await e2e.waitChildExit(again, 30_000, "the second xclip did not exit once it lost the clipboard");
    assert.equal(await xclipRead(off.display), "page to X");
  } finally {
    await local.close();
  }
});

test("a view-only viewer cannot type, click or paste", opts, async () => {
  const local = new e2e.Scope();
  try {
    const guarded = await e2e.startVoxl(local, {
      args: ["--enable-basic-auth", "--basic-auth-password=full-secret", "--basic-auth-viewonly-password=look-only"],
    });
    const probe = await startProbe(local, guarded.display);
    const viewer = await e2e.launchBrowser(local, { httpCredentials: { username: "voxl", password: "look-only" } });
    await viewer.page.goto(guarded.url);
    await e2e.waitStreaming(viewer.page);
    await e2e.waitInPage(viewer.page, () => window.voxl.interaction()?.viewOnly === true, null, { what: "view-only" });
    assert.equal(await viewer.page.evaluate(() => window.voxl.interaction().input), false);
    await viewer.page.keyboard.type("no");
    await viewer.page.mouse.click(100, 100);

    // The page sends nothing, but the server does not trust it: a socket of
    // the same viewer that sends input anyway is refused.
    const refused = await viewer.page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          const got = [];
          const timer = setTimeout(() => reject(new Error(`no refusal; got ${JSON.stringify(got)}`)), 30_000);
          ws.onopen = () => {
            ws.send(JSON.stringify({ type: "key", code: "KeyX", key: "x", down: true, mods: 0 }));
            ws.send(JSON.stringify({ type: "key", code: "KeyX", key: "x", down: false, mods: 0 }));
            ws.send(JSON.stringify({ type: "text", text: "typed anyway" }));
            ws.send(JSON.stringify({ type: "button", button: 1, down: true, x: 5, y: 5, mods: 0 }));
            ws.send(JSON.stringify({ type: "clipboard", mime: "text/plain", text: "pasted anyway" }));
          };
          ws.onmessage = (ev) => {
            if (typeof ev.data !== "string") return;
            const m = JSON.parse(ev.data);
            if (m.type === "refused") got.push(m);
            if (got.length === 2) {
              clearTimeout(timer);
              ws.close();
              resolve(got);
            }
          };
        }),
    );
    assert.deepEqual(refused.map((m) => m.what).sort(), ["clipboard", "input"]);

    // A full viewer's keys do arrive: the probe would have seen the others.
    const full = await e2e.launchBrowser(local, { httpCredentials: { username: "voxl", password: "full-secret" } });
    await full.page.goto(guarded.url);
    await e2e.waitStreaming(full.page);
    await e2e.waitInPage(full.page, () => window.voxl.interaction()?.input === true, null, { what: "input enabled" });
    await full.page.keyboard.type("k");
    await probe.waitFor(() => probe.keysyms().length >= 1, 30_000, "the full viewer's key");
    assert.deepEqual(probe.keysyms(), [0x6b]);
    assert.deepEqual(probe.buttons(), []);
  } finally {
    await local.close();
  }
});
