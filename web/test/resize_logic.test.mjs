// Pure logic of dynamic resolution in the page, without a browser: the size
// a stage asks for (the pixel factor, rounding and clamping), the debounce,
// and where the desktop (or the stream, fitted) is shown.
//
//   node --test web/test/resize_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { desktopPixelsPerCss, roundDesktopSize, wantedDesktopSize, ResizeDebounce, RESIZE_DEBOUNCE_MS } =
  await load("src/view/resize_rule.ts");
const { fitDesktop, fitStream } = await load("src/view/fit.ts");
const { parseServerMessage } = await load("src/protocol/messages.ts");

const LIMITS = { minWidth: 320, minHeight: 240, maxWidth: 3840, maxHeight: 2160 };
const size = (width, height) => ({ width, height });

test("the factor is one desktop pixel per device pixel, capped by the scale", () => {
  assert.equal(desktopPixelsPerCss(1, 1.5), 1);
  assert.equal(desktopPixelsPerCss(1.25, 1.5), 1.25);
  assert.equal(desktopPixelsPerCss(1.5, 1.5), 1.5);
  assert.equal(desktopPixelsPerCss(2, 1.5), 1.5);
  assert.equal(desktopPixelsPerCss(3, 2), 2);
  // Nonsense from a browser or a server falls back to 1.
  assert.equal(desktopPixelsPerCss(0, 1.5), 1);
  assert.equal(desktopPixelsPerCss(2, Number.NaN), 1);
});

test("widths round down to a multiple of 8, heights to even, within the limits", () => {
  assert.deepEqual(roundDesktopSize(1280, 720, LIMITS), size(1280, 720));
  assert.deepEqual(roundDesktopSize(1287, 721, LIMITS), size(1280, 720));
  assert.deepEqual(roundDesktopSize(1000.9, 599.9, LIMITS), size(1000, 598));
  assert.deepEqual(roundDesktopSize(100, 50, LIMITS), size(320, 240));
  assert.deepEqual(roundDesktopSize(5000, 3000, LIMITS), size(3840, 2160));
  // Limits off the grid are brought onto it, inside themselves.
  const odd = { minWidth: 321, minHeight: 241, maxWidth: 1001, maxHeight: 701 };
  assert.deepEqual(roundDesktopSize(10, 10, odd), size(328, 242));
  assert.deepEqual(roundDesktopSize(5000, 5000, odd), size(1000, 700));
  // Never beyond the protocol's range, whatever the server says.
  const huge = { minWidth: 0, minHeight: 0, maxWidth: 99999, maxHeight: 99999 };
  assert.deepEqual(roundDesktopSize(20000, 20000, huge), size(16384, 16384));
  assert.deepEqual(roundDesktopSize(1, 1, huge), size(8, 2));
});

test("a stage asks for its device pixels up to the scale", () => {
  // 1x screen: the CSS size is the device size.
  assert.deepEqual(wantedDesktopSize(size(1280, 720), 1, 1.5, LIMITS), size(1280, 720));
  assert.deepEqual(wantedDesktopSize(size(1003, 601), 1, 1.5, LIMITS), size(1000, 600));
  // 1.5x screen at scale 1.5: still every device pixel (1920x1080 from 1280x720 CSS).
  assert.deepEqual(wantedDesktopSize(size(1920, 1080), 1.5, 1.5, LIMITS), size(1920, 1080));
  // 2x screen: capped at 1.5 desktop pixels per CSS pixel (1280x720 CSS).
  assert.deepEqual(wantedDesktopSize(size(2560, 1440), 2, 1.5, LIMITS), size(1920, 1080));
  // 1.25x below the scale: the device pixels, rounded.
  assert.deepEqual(wantedDesktopSize(size(1601, 901), 1.25, 1.5, LIMITS), size(1600, 900));
  // Clamped both ways.
  assert.deepEqual(wantedDesktopSize(size(200, 100), 1, 1.5, LIMITS), size(320, 240));
  assert.deepEqual(wantedDesktopSize(size(7680, 4320), 2, 2, LIMITS), size(3840, 2160));
  // A stage with no area asks for nothing.
  assert.equal(wantedDesktopSize(size(0, 720), 1, 1.5, LIMITS), null);
});

test("the debounce sends a change after a still stage at once, a drag once it is still for 300 ms, and only what changed", () => {
  assert.equal(RESIZE_DEBOUNCE_MS, 300);
  const d = new ResizeDebounce();
  // Nothing wanted: nothing to do.
  assert.equal(d.decide(0, null), null);
  // Never changed since the page started: at once.
  assert.deepEqual(d.decide(0, size(1280, 720)), { send: size(1280, 720) });
  d.sent(size(1280, 720));
  assert.equal(d.decide(10, size(1280, 720)), null, "the same size is not sent again");
  // A drag: its first step after a still stage goes at once...
  d.stageChanged(1000);
  assert.deepEqual(d.decide(1000, size(1200, 700)), { send: size(1200, 700) });
  d.sent(size(1200, 700));
  // ...the next ones wait until the stage is still, each restarting the wait.
  d.stageChanged(1100);
  assert.deepEqual(d.decide(1100, size(1150, 680)), { waitMs: 300 });
  d.stageChanged(1200);
  assert.deepEqual(d.decide(1350, size(1100, 650)), { waitMs: 150 });
  assert.deepEqual(d.decide(1500, size(1100, 650)), { send: size(1100, 650) });
  d.sent(size(1100, 650));
  // Dragged away and back: nothing new to send.
  d.stageChanged(2000);
  d.stageChanged(2050);
  assert.equal(d.decide(2100, size(1100, 650)), null);
  assert.equal(d.decide(2400, size(1100, 650)), null);

  // A new connection (or becoming the holder): the same size again.
  d.forgetSent();
  assert.equal(d.last, null);
  assert.deepEqual(d.decide(2400, size(1100, 650)), { send: size(1100, 650) });
  d.sent(size(1100, 650));
  // A maximised window, long after: at once.
  d.stageChanged(5000);
  assert.deepEqual(d.decide(5000, size(1900, 1000)), { send: size(1900, 1000) });
});

test("the desktop is shown at its size over f, centred on whole device pixels, when it fits", () => {
  // 1x, f 1: 1:1 and centred.
  assert.deepEqual(fitDesktop(1000, 600, 1280, 720, 1, 1), {
    scale: 1, left: 140, top: 60, width: 1000, height: 600, pixelated: true,
  });
  // 2x screen, f 2: CSS size is half, device pixels 1:1.
  assert.deepEqual(fitDesktop(2560, 1440, 2560, 1440, 2, 2), {
    scale: 1, left: 0, top: 0, width: 1280, height: 720, pixelated: true,
  });
  // 2x screen capped at f 1.5: 4/3 device pixels per desktop pixel, smoothed.
  const capped = fitDesktop(1920, 1080, 2560, 1440, 2, 1.5);
  assert.equal(capped.width, 1280);
  assert.equal(capped.height, 720);
  assert.equal(capped.pixelated, false);
  // An odd margin leaves the extra device pixel on the right and bottom.
  assert.deepEqual(fitDesktop(1000, 600, 1001, 603, 1, 1), {
    scale: 1, left: 0, top: 1, width: 1000, height: 600, pixelated: true,
  });
  // Larger than the window (another viewer's desktop): not this layout.
  assert.equal(fitDesktop(1920, 1080, 1280, 720, 1, 1), null);
  assert.equal(fitDesktop(0, 0, 1280, 720, 1, 1), null);
  // The fallback still never enlarges.
  assert.equal(fitStream(1920, 1080, 1280, 720, 1).scale, 2 / 3);
});

test("fitting letterboxes, never enlarges, and lands on whole device pixels, from 1x1 to 16384x16384", () => {
  const fit = (scale, left, top, width, height, pixelated) => ({ scale, left, top, width, height, pixelated });
  // Smaller than the window: 1:1, centred.
  assert.deepEqual(fitStream(640, 480, 1280, 720, 1), fit(1, 320, 120, 640, 480, true));
  assert.deepEqual(fitStream(1280, 720, 1280, 720, 1), fit(1, 0, 0, 1280, 720, true));
  // One pixel: still one pixel, centred with the odd pixel to the right and below.
  assert.deepEqual(fitStream(1, 1, 1280, 720, 1), fit(1, 639, 359, 1, 1, true));
  // Huge on a phone: scaled to the narrower side, smoothed.
  assert.deepEqual(fitStream(16384, 16384, 360, 640, 1), fit(360 / 16384, 0, 140, 360, 360, false));
  // So wide that the height rounds to nothing: kept at one pixel.
  assert.deepEqual(fitStream(10000, 1, 1000, 1000, 1), fit(0.1, 0, 499, 1000, 1, false));
  // 2x screen: device pixels are halved into CSS pixels.
  assert.deepEqual(fitStream(1920, 1080, 2560, 1440, 2), fit(1, 160, 90, 960, 540, true));
  // 1.5x: the box is whole device pixels (1000x563 at 0,218), whatever that is in CSS.
  const f = fitStream(1280, 720, 1000, 1000, 1.5);
  assert.equal(f.scale, 1000 / 1280);
  assert.deepEqual([f.left, f.top, f.width, f.height].map((v) => v * 1.5), [0, 218, 1000, 563]);
  assert.equal(f.pixelated, false);
  // Nothing to show, or nonsense from the browser: an empty box.
  const empty = fit(1, 0, 0, 0, 0, false);
  for (const args of [
    [0, 480, 1280, 720, 1],
    [640, 0, 1280, 720, 1],
    [640, 480, 0, 720, 1],
    [640, 480, 1280, -1, 1],
    [640, 480, 1280, 720, 0],
    [640, 480, 1280, 720, Number.NaN],
    [640, 480, 1280, 720, -2],
  ]) {
    assert.deepEqual(fitStream(...args), empty, JSON.stringify(args));
  }
});

test("the desktop layout at extreme factors: enlarged only by whole factors, shrunk to at least a pixel", () => {
  // f 0.5: twice the size, pixelated, when it fits...
  assert.deepEqual(fitDesktop(100, 100, 1280, 720, 1, 0.5), {
    scale: 2, left: 540, top: 260, width: 200, height: 200, pixelated: true,
  });
  // ...and not at all when it does not.
  assert.equal(fitDesktop(640, 480, 1280, 720, 1, 0.5), null);
  // A factor of 1000 leaves one pixel.
  assert.deepEqual(fitDesktop(1280, 720, 1280, 720, 1, 1000), {
    scale: 0.001, left: 639, top: 359, width: 1, height: 1, pixelated: false,
  });
  for (const f of [0, -1, Number.NaN]) assert.equal(fitDesktop(640, 480, 1280, 720, 1, f), null, String(f));
  assert.equal(fitDesktop(640, 480, 1280, 720, 0, 1), null);
  // Exactly the window's size fits.
  assert.equal(fitDesktop(1280, 720, 1280, 720, 1, 1).left, 0);
  assert.equal(fitDesktop(1281, 720, 1280, 720, 1, 1), null);
});

test("the server's resize message is read, and malformed ones are dropped", () => {
  const good = {
    type: "resize", enabled: true, reason: "", holder: true, policy: "last-input", scale: 1.5,
    min_width: 320, min_height: 240, max_width: 3840, max_height: 2160,
  };
  assert.deepEqual(parseServerMessage(JSON.stringify(good)), good);
  const off = { ...good, enabled: false, holder: false, reason: "the X server cannot make modes" };
  assert.deepEqual(parseServerMessage(JSON.stringify(off)), off);
  // Disabled, the other fields may be left out.
  const bare = { type: "resize", enabled: false, reason: "no RandR" };
  assert.deepEqual(parseServerMessage(JSON.stringify(bare)), bare);
  for (const bad of [
    { ...good, enabled: "yes" },
    { type: "resize", enabled: true, reason: "" },
    { type: "resize", enabled: false, reason: 3 },
    { ...good, holder: undefined },
    { ...good, scale: 0 },
    { ...good, max_width: "3840" },
    { ...good, reason: 7 },
  ]) {
    assert.equal(parseServerMessage(JSON.stringify(bad)), null, JSON.stringify(bad));
  }
});
