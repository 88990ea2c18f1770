// Touch through a real browser at a phone's size (360x640, touch events,
// mobile viewport): real touches sent over the DevTools protocol reach an
// X client as the clicks, presses and wheel turns they stand for, at the
// desktop pixel under the finger (also while the picture is pinch-zoomed);
// in the 1:1 scaling mode two fingers scroll the stage before the desktop,
// and taps and pinches land right after a scroll; the on-screen keyboard
// types; the page itself never scrolls or zooms.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";
import { keysymOf, startProbe } from "./input_probe.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const PHONE = { width: 360, height: 640 };
const WAIT_MS = 30_000;

const scope = new e2e.Scope();
let voxl;
let probe;
let page;
let cdp;

before(async () => {
  voxl = await e2e.startVoxl(scope);
  probe = await startProbe(scope, voxl.display);
  const browser = await e2e.launchBrowser(scope, { viewport: PHONE, hasTouch: true, isMobile: true });
  page = browser.page;
  cdp = await browser.context.newCDPSession(page);
  await page.goto(voxl.url);
  await e2e.waitStreaming(page);
  await e2e.waitInPage(page, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 360, null, {
    what: "the picture fitted to the phone's width",
  });
}, opts);
after(() => scope.close());

const touch = (type, points) =>
  cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });

// Both sent at once: however loaded the machine, the page gets them back to
// back, never half a second apart (which would be a long press).
async function tap(x, y) {
  await Promise.all([touch("touchStart", [[x, y]]), touch("touchEnd", [])]);
}

// Fingers from `from` to `to` ([[x, y], ...] each) in `steps` moves.
async function drag(from, to, steps = 8) {
  await touch("touchStart", from);
  for (let i = 1; i <= steps; i++) {
    await touch("touchMove", from.map(([x, y], k) => [x + ((to[k][0] - x) * i) / steps, y + ((to[k][1] - y) * i) / steps]));
  }
  await touch("touchEnd", []);
}

// The picture as shown (zoom included): { left, top, width, height }.
async function shown() {
  return page.evaluate(() => {
    const r = document.getElementById("screen").getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

// The desktop pixel under page point (x, y), as the page should map it.
function desktopAt(box, x, y) {
  return [Math.floor(((x - box.left) * e2e.DESKTOP.width) / box.width), Math.floor(((y - box.top) * e2e.DESKTOP.height) / box.height)];
}

const presses = () => probe.buttons().length;

async function nextPresses(n, what) {
  const seen = presses();
  await probe.waitFor(() => presses() >= seen + n, WAIT_MS, what);
  return probe.buttons().slice(seen);
}

async function pageUnmoved() {
  const v = await page.evaluate(() => ({
    scale: window.visualViewport.scale,
    offset: [window.visualViewport.offsetLeft, window.visualViewport.offsetTop],
    scroll: [window.scrollX, window.scrollY],
  }));
  assert.deepEqual(v, { scale: 1, offset: [0, 0], scroll: [0, 0] }, "the page itself neither zoomed nor scrolled");
}

test("a tap clicks the desktop pixel under the finger; a long press is button 3", opts, async () => {
  const box = await shown();
  // 640x480 at 360x270 below the top bar of the letterbox.
  assert.deepEqual(box, { left: 0, top: 185, width: 360, height: 270 });
  assert.equal(await page.evaluate(() => window.voxl.touch().mode), "direct");

  const p = [169, 300];
  const seen = presses();
  await tap(...p);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "the tap's click");
  assert.deepEqual(probe.buttons().slice(seen), [`button down 1 ${desktopAt(box, ...p).join(" ")}`]);

  const q = [40, 420];
  await touch("touchStart", [q]);
  // The page's own timer turns the held finger into a right click.
  const got = await nextPresses(1, "the long press's right click");
  await touch("touchEnd", []);
  assert.deepEqual(got, [`button down 3 ${desktopAt(box, ...q).join(" ")}`]);
  await pageUnmoved();
});

test("two fingers dragged up scroll the desktop down, dragged down scroll it up", opts, async () => {
  const down = await (async () => {
    const seen = presses();
    // 150 CSS px are 267 desktop pixels: at least one notch.
    await drag([[150, 400], [210, 400]], [[150, 250], [210, 250]]);
    await probe.waitFor(() => presses() > seen, WAIT_MS, "wheel notches");
    return probe.buttons().slice(seen);
  })();
  assert.ok(down.length >= 1 && down.every((l) => l.startsWith("button down 5 ")), down.join("\n"));

  const seen = presses();
  await drag([[150, 250], [210, 250]], [[150, 400], [210, 400]]);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "wheel notches back");
  const up = probe.buttons().slice(seen);
  assert.ok(up.every((l) => l.startsWith("button down 4 ")), up.join("\n"));
  await pageUnmoved();
});

test("trackpad mode: a drag moves the pointer, a tap clicks where it is", opts, async () => {
  await page.evaluate(() => window.voxl.touch().setMode("trackpad"));
  assert.equal(await page.evaluate(() => window.voxl.touch().state().mode), "trackpad");
  // The pointer starts at the desktop's centre; 36 CSS px right and 18 up
  // move it by 1.5x that at the picture's scale (640 / 360 desktop pixels
  // per CSS pixel): (416, 192).
  await drag([[100, 500]], [[136, 482]]);
  const seen = presses();
  await tap(300, 600);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "the trackpad tap");
  const [, , , x, y] = probe.buttons()[seen].split(" ");
  assert.ok(Math.abs(Number(x) - 416) <= 1 && Math.abs(Number(y) - 192) <= 1, `clicked at ${x},${y}`);
  // The page draws the pointer, a touch screen shows none.
  assert.equal(await page.evaluate(() => document.querySelector(".touch-pointer")?.hidden), false);
  await page.evaluate(() => window.voxl.touch().setMode("direct"));
  assert.equal(await page.evaluate(() => document.querySelector(".touch-pointer").hidden), true);
});

test("a pinch zooms the picture, not the page; two fingers pan it; taps still land on the right pixel", opts, async () => {
  await drag([[160, 320], [200, 320]], [[80, 320], [280, 320]]);
  const state = await page.evaluate(() => window.voxl.touch().state());
  assert.ok(state.zoom.scale > 3, `zoomed ${state.zoom.scale}x`);
  await pageUnmoved();
  const box = await shown();
  assert.ok(Math.abs(box.width - 360 * state.zoom.scale) < 0.5, `picture ${box.width} px wide`);

  let p = [101, 333];
  let seen = presses();
  await tap(...p);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "the tap on the zoomed picture");
  assert.deepEqual(probe.buttons().slice(seen), [`button down 1 ${desktopAt(box, ...p).join(" ")}`]);

  // Two fingers dragged on the zoomed picture pan it and turn no wheel:
  // the next thing X gets is the tap after them.
  seen = presses();
  await drag([[150, 400], [190, 400]], [[150, 300], [190, 300]]);
  const panned = await shown();
  assert.ok(panned.top < box.top - 50, `panned up from ${box.top} to ${panned.top}`);
  assert.equal(panned.left, box.left);
  p = [250, 100];
  await tap(...p);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "the tap on the panned picture");
  assert.deepEqual(probe.buttons().slice(seen), [`button down 1 ${desktopAt(panned, ...p).join(" ")}`]);
  await pageUnmoved();

  await page.evaluate(() => window.voxl.touch().resetZoom());
  assert.deepEqual(await shown(), { left: 0, top: 185, width: 360, height: 270 });
});

test("1:1: two fingers scroll the stage as far as it goes, then the desktop; taps and pinches land right after", opts, async () => {
  const stage = () =>
    page.evaluate(() => {
      const s = document.getElementById("stage");
      return { left: s.scrollLeft, top: s.scrollTop, maxLeft: s.scrollWidth - s.clientWidth, maxTop: s.scrollHeight - s.clientHeight };
    });
  await page.evaluate(() => document.getElementById("panel-scaling-native").click());
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 640, null, { what: "1:1" });
  let st = await stage();
  // 640 desktop pixels in a 360 px window; 480 of them in 640 px.
  assert.deepEqual(st, { left: 0, top: 0, maxLeft: 280, maxTop: 0 });

  // Fingers 120 px to the left: the stage scrolls by as much, X hears nothing
  // (the next thing it gets is the tap after them).
  let seen = presses();
  await drag([[250, 300], [290, 300]], [[130, 300], [170, 300]]);
  st = await stage();
  assert.equal(st.left, 120, "the stage followed the fingers");
  const box = await shown();
  assert.equal(box.left, -120);
  const p = [201, 333];
  await tap(...p);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "the tap on the scrolled stage");
  assert.deepEqual(probe.buttons().slice(seen), [`button down 1 ${desktopAt(box, ...p).join(" ")}`]);

  // Past its end the stage stops; up and down it cannot scroll at all, so
  // that drag turns the desktop's wheel.
  await drag([[250, 300], [290, 300]], [[10, 300], [50, 300]]);
  assert.equal((await stage()).left, 280);
  seen = presses();
  // 400 CSS px are 400 desktop pixels at 1:1: at least one notch.
  await drag([[150, 550], [210, 550]], [[150, 150], [210, 150]], 16);
  await probe.waitFor(() => presses() > seen, WAIT_MS, "wheel notches in 1:1");
  const wheel = probe.buttons().slice(seen);
  assert.ok(wheel.length >= 1 && wheel.every((l) => l.startsWith("button down 5 ")), wheel.join("\n"));
  assert.equal((await stage()).left, 280);

  // A pinch keeps the desktop pixel under its centre where it was, the
  // stage's scroll accounted for.
  const centre = [180, 330];
  const before = desktopAt(await shown(), ...centre);
  await drag([[160, 330], [200, 330]], [[80, 330], [280, 330]]);
  const zoomed = await shown();
  assert.ok(zoomed.width > 640 * 2, `zoomed to ${zoomed.width} px`);
  const after = desktopAt(zoomed, ...centre);
  assert.ok(Math.abs(after[0] - before[0]) <= 2 && Math.abs(after[1] - before[1]) <= 2, `the pinch's centre moved from ${before} to ${after}`);
  await pageUnmoved();

  await page.evaluate(() => window.voxl.touch().resetZoom());
  await page.evaluate(() => document.getElementById("panel-scaling-fit").click());
  await e2e.waitInPage(page, () => document.getElementById("screen").getBoundingClientRect().width === 360, null, { what: "fit again" });
  assert.deepEqual(await shown(), { left: 0, top: 185, width: 360, height: 270 });
});

test("the on-screen keyboard types text, input method text once committed, and keys", opts, async () => {
  assert.equal(await page.evaluate(() => window.voxl.touch().keyboardShown), false);
  // A keyboard button as the panel has one, tapped: the keyboard shows on
  // a user's gesture, and the same button hides it (although its tap takes
  // the focus from the keyboard's field before its click).
  await page.evaluate(() => {
    window.__touchChanges = 0;
    window.voxl.touch().onChange(() => window.__touchChanges++);
    const b = document.createElement("button");
    b.textContent = "keyboard";
    Object.assign(b.style, { position: "fixed", left: "0", top: "0", width: "96px", height: "48px", zIndex: "10" });
    b.addEventListener("click", () => window.voxl.touch().toggleKeyboard());
    document.body.appendChild(b);
  });
  const keyboardButton = [48, 24];
  await tap(...keyboardButton);
  await e2e.waitInPage(page, () => window.voxl.touch().keyboardShown, null, { what: "the keyboard shown" });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "on-screen keyboard for the remote desktop");

  await page.evaluate(() => {
    window.__compositions = 0;
    document.activeElement.addEventListener("compositionstart", () => window.__compositions++);
  });
  const base = probe.keysyms().length;
  // What a virtual keyboard inserts, then an input method's composition:
  // nothing until it commits.
  await page.keyboard.insertText("ok é");
  await cdp.send("Input.imeSetComposition", { text: "にほ", selectionStart: 2, selectionEnd: 2 });
  await cdp.send("Input.imeSetComposition", { text: "にほん", selectionStart: 3, selectionEnd: 3 });
  await cdp.send("Input.insertText", { text: "日本" });
  // Keys with a meaning, as a key event and as the edit a virtual keyboard
  // reports instead.
  await page.keyboard.press("Enter");
  await page.evaluate(() =>
    document.activeElement.dispatchEvent(new InputEvent("beforeinput", { inputType: "deleteContentBackward", cancelable: true })),
  );
  await page.keyboard.press("ArrowLeft");
  const want = [..."ok é", ..."日本"].map(keysymOf).concat([0xff0d, 0xff08, 0xff51]);
  await probe.waitFor(() => probe.keysyms().length >= base + want.length, WAIT_MS, "the typed text and keys");
  assert.deepEqual(probe.keysyms().slice(base), want);
  assert.equal(await page.evaluate(() => window.__compositions), 1, "one composition went by");

  // A tap on the picture leaves the keyboard up.
  await tap(20, 200);
  assert.equal(await page.evaluate(() => window.voxl.touch().keyboardShown), true);
  await tap(...keyboardButton);
  await e2e.waitInPage(page, () => !window.voxl.touch().keyboardShown, null, { what: "the keyboard hidden" });
  assert.notEqual(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "on-screen keyboard for the remote desktop");
  // Still hidden once the button's tap is over.
  await tap(200, 600);
  assert.equal(await page.evaluate(() => window.voxl.touch().keyboardShown), false);
  assert.equal(await page.evaluate(() => window.__touchChanges), 2, "shown, then hidden, were announced");
  await pageUnmoved();
});
