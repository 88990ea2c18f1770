// The page's touch gestures and pinch zoom without a browser: synthetic
// touch traces through the recogniser with a hand-driven clock, and the zoom
// arithmetic. The TypeScript is bundled in memory with the repository's
// esbuild.
//
//   node --test web/test/touch_gestures.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const G = await load("src/input/touch_gestures.ts");
const { PictureZoom, MAX_ZOOM, scrollStep } = await load("src/view/picture_zoom.ts");
const { TouchGestures, LONG_PRESS_MS, DOUBLE_TAP_MS, TRACKPAD_GAIN } = G;

// A clock the test moves by hand.
function fakeClock() {
  let now = 0;
  let timers = [];
  return {
    now: () => now,
    later(ms, fn) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => {
        timers = timers.filter((x) => x !== t);
      };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
    pending: () => timers.length,
  };
}

// A 640x480 stream shown at half size, its box at (0, 100) in the page:
// 2 stream pixels per CSS pixel.
const BOX = { left: 0, top: 100, width: 320, height: 240 };
const STREAM = { width: 640, height: 480 };
const map = {
  toStream: (p) => ({
    x: Math.min(STREAM.width - 1, Math.max(0, Math.floor((p.x - BOX.left) * 2))),
    y: Math.min(STREAM.height - 1, Math.max(0, Math.floor((p.y - BOX.top) * 2))),
  }),
  scale: () => ({ x: 2, y: 2 }),
  size: () => STREAM,
};

// `room`: how far (CSS px) the zoomed picture can pan each way; none unzoomed.
function recogniser(mode, room = { x: 0, y: 0 }) {
  const clock = fakeClock();
  const sent = [];
  const zooms = [];
  const pans = [];
  const left = { ...room };
  const take = (d, k) => {
    const t = Math.sign(d) * Math.min(Math.abs(d), left[k]);
    left[k] -= Math.abs(t);
    return t;
  };
  const sink = {
    send: (m) => sent.push(m),
    zoom: (from, to, ratio) => zooms.push({ from, to, ratio }),
    pan: (dx, dy) => {
      const t = { x: take(dx, "x"), y: take(dy, "y") };
      if (t.x || t.y) pans.push(t);
      return { x: dx - t.x, y: dy - t.y };
    },
  };
  const g = new TouchGestures(map, sink, clock, mode);
  return { g, clock, sent, zooms, pans };
}

const buttons = (sent) => sent.filter((m) => m.type === "button").map((m) => `${m.button}${m.down ? "v" : "^"}@${m.x},${m.y}`);

// A stroke of one finger from `a` to `b` in `steps` moves, `ms` apart.
function stroke(r, id, a, b, steps = 5, ms = 16) {
  for (let i = 1; i <= steps; i++) {
    r.clock.advance(ms);
    r.g.move(id, a.x + ((b.x - a.x) * i) / steps, a.y + ((b.y - a.y) * i) / steps);
  }
}

test("direct: a tap clicks the stream pixel under the finger, at once", () => {
  const r = recogniser("direct");
  r.g.down(1, 100, 150);
  r.clock.advance(80);
  r.g.move(1, 103, 151); // within the slop
  r.g.up(1, 103, 151);
  assert.deepEqual(buttons(r.sent), ["1v@200,100", "1^@200,100"]);
  assert.equal(r.clock.pending(), 0, "no timer left behind");
});

test("direct: a second tap soon and near the first lands on its pixel (a double click)", () => {
  const r = recogniser("direct");
  r.g.down(1, 100, 150);
  r.g.up(1);
  r.clock.advance(150);
  r.g.down(1, 104, 147);
  r.g.up(1);
  assert.deepEqual(buttons(r.sent), ["1v@200,100", "1^@200,100", "1v@200,100", "1^@200,100"]);
  // Later, or farther, a tap clicks under the finger again.
  r.clock.advance(G.DOUBLE_CLICK_MS + 1);
  r.g.down(1, 104, 147);
  r.g.up(1);
  r.clock.advance(100);
  r.g.down(1, 150, 150);
  r.g.up(1);
  assert.deepEqual(buttons(r.sent).slice(4), ["1v@208,94", "1^@208,94", "1v@300,100", "1^@300,100"]);
});

test("a long press is a right click where the finger is, and nothing more", () => {
  const r = recogniser("direct");
  r.g.down(1, 50, 120);
  r.clock.advance(LONG_PRESS_MS - 1);
  assert.deepEqual(buttons(r.sent), []);
  r.clock.advance(1);
  assert.deepEqual(buttons(r.sent), ["3v@100,40", "3^@100,40"]);
  stroke(r, 1, { x: 50, y: 120 }, { x: 150, y: 200 });
  r.g.up(1, 150, 200);
  assert.deepEqual(buttons(r.sent), ["3v@100,40", "3^@100,40"], "the finger lifting later adds nothing");
  assert.equal(r.sent.filter((m) => m.type === "move").length, 0);
});

test("a finger that moves is no long press", () => {
  const r = recogniser("direct");
  r.g.down(1, 50, 120);
  stroke(r, 1, { x: 50, y: 120 }, { x: 80, y: 120 }, 3);
  r.clock.advance(LONG_PRESS_MS * 2);
  assert.ok(!buttons(r.sent).some((b) => b.startsWith("3")));
});

test("direct: a drag holds the left button from where the finger landed to where it lifts", () => {
  const r = recogniser("direct");
  r.g.down(1, 10, 110);
  stroke(r, 1, { x: 10, y: 110 }, { x: 110, y: 160 }, 4);
  r.g.up(1, 110, 160);
  assert.deepEqual(buttons(r.sent), ["1v@20,20", "1^@220,120"]);
  const moves = r.sent.filter((m) => m.type === "move");
  assert.deepEqual(moves[0], { type: "move", x: 20, y: 20 });
  assert.deepEqual(moves.at(-1), { type: "move", x: 220, y: 120 });
  // Every move after the press comes before its release.
  assert.equal(r.sent.at(-1).type, "button");
});

test("trackpad: a drag moves the pointer by the finger's delta, no button", () => {
  const r = recogniser("trackpad");
  r.g.down(1, 200, 300);
  stroke(r, 1, { x: 200, y: 300 }, { x: 230, y: 290 }, 6);
  r.g.up(1, 230, 290);
  assert.deepEqual(buttons(r.sent), []);
  // The pointer starts at the picture's centre.
  const want = { x: Math.round(320 + 30 * 2 * TRACKPAD_GAIN), y: Math.round(240 - 10 * 2 * TRACKPAD_GAIN) };
  assert.deepEqual(r.sent.at(-1), { type: "move", ...want });
  assert.deepEqual(r.g.pointerPosition(), want);
  // The pointer stops at the picture's edge.
  r.g.down(2, 0, 300);
  stroke(r, 2, { x: 0, y: 300 }, { x: 2000, y: 300 }, 4);
  r.g.up(2);
  assert.equal(r.g.pointerPosition().x, STREAM.width - 1);
});

test("trackpad: a tap clicks where the pointer is; its release waits for a second touch", () => {
  const r = recogniser("trackpad");
  r.g.down(1, 10, 10); // far from the pointer: the finger's place does not matter
  r.clock.advance(60);
  r.g.up(1, 10, 10);
  assert.deepEqual(buttons(r.sent), ["1v@320,240"]);
  r.clock.advance(DOUBLE_TAP_MS);
  assert.deepEqual(buttons(r.sent), ["1v@320,240", "1^@320,240"]);
});

test("trackpad: tap, then touch again and drag: one press, held through the drag", () => {
  const r = recogniser("trackpad");
  r.g.down(1, 100, 200);
  r.clock.advance(50);
  r.g.up(1, 100, 200);
  r.clock.advance(DOUBLE_TAP_MS - 50);
  r.g.down(1, 100, 200);
  r.clock.advance(LONG_PRESS_MS * 2); // holding still is no right click here
  stroke(r, 1, { x: 100, y: 200 }, { x: 120, y: 200 }, 4);
  r.clock.advance(DOUBLE_TAP_MS * 4);
  assert.deepEqual(buttons(r.sent), ["1v@320,240"], "still held while the finger is down");
  r.g.up(1, 120, 200);
  const end = Math.round(320 + 20 * 2 * TRACKPAD_GAIN);
  assert.deepEqual(buttons(r.sent), ["1v@320,240", `1^@${end},240`]);
});

test("trackpad: two quick taps are a double click", () => {
  const r = recogniser("trackpad");
  for (let i = 0; i < 2; i++) {
    r.g.down(1, 100, 200);
    r.clock.advance(40);
    r.g.up(1, 100, 200);
    r.clock.advance(40);
  }
  r.clock.advance(DOUBLE_TAP_MS * 2);
  assert.deepEqual(buttons(r.sent), ["1v@320,240", "1^@320,240", "1v@320,240", "1^@320,240"]);
});

test("trackpad: a long press and a two-finger scroll act where the pointer is", () => {
  const r = recogniser("trackpad");
  r.g.down(1, 30, 400);
  r.clock.advance(LONG_PRESS_MS);
  r.g.up(1);
  assert.deepEqual(buttons(r.sent), ["3v@320,240", "3^@320,240"]);
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  r.g.moveAll([{ id: 1, x: 100, y: 230 }, { id: 2, x: 140, y: 230 }]);
  r.g.up(1);
  r.g.up(2);
  const scrolls = r.sent.filter((m) => m.type === "scroll");
  assert.deepEqual(scrolls, [{ type: "scroll", dx: 0, dy: -60, unit: "px", x: 320, y: 240 }]);
});

test("two fingers dragged together scroll, content following the fingers", () => {
  const r = recogniser("direct");
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  for (let i = 1; i <= 10; i++) {
    r.clock.advance(16);
    r.g.move(1, 100, 200 - 8 * i);
    r.g.move(2, 140, 200 - 8 * i);
  }
  r.g.up(1);
  r.g.up(2);
  assert.deepEqual(buttons(r.sent), [], "no click");
  const scrolls = r.sent.filter((m) => m.type === "scroll");
  assert.ok(scrolls.length > 0);
  assert.ok(scrolls.every((s) => s.unit === "px" && s.dy > 0 && s.dx === 0), "fingers up: the content goes up, scrolling down");
  // The whole stroke, slop included: 80 CSS px of the centre is 160 stream px.
  assert.equal(scrolls.reduce((a, s) => a + s.dy, 0), 160);
  assert.equal(r.zooms.length, 0);
  // Direct: the wheel turns at the fingers' centre.
  assert.equal(scrolls[0].x, 240);
});

test("on a zoomed picture two fingers pan it while it can pan, and stay a pan", () => {
  const r = recogniser("direct", { x: 0, y: 30 });
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  for (let i = 1; i <= 10; i++) {
    r.clock.advance(16);
    r.g.moveAll([{ id: 1, x: 100, y: 200 - 8 * i }, { id: 2, x: 140, y: 200 - 8 * i }]);
  }
  r.g.up(1);
  r.g.up(2);
  assert.equal(r.sent.length, 0, "no scroll: the gesture is the picture's");
  assert.equal(r.pans.reduce((a, p) => a + p.y, 0), -30, "panned as far as it could");
  // Sideways the picture cannot pan: that drag scrolls the desktop.
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  for (let i = 1; i <= 3; i++) r.g.moveAll([{ id: 1, x: 100 + 8 * i, y: 200 }, { id: 2, x: 140 + 8 * i, y: 200 }]);
  r.g.up(1);
  r.g.up(2);
  const scrolls = r.sent.filter((m) => m.type === "scroll");
  assert.ok(scrolls.length > 0 && scrolls.every((m) => m.dx < 0 && m.dy === 0));
});

test("a two-finger pan moves the picture as far as the fingers go, no step counted twice", () => {
  const r = recogniser("direct", { x: 0, y: 1000 });
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  for (let i = 1; i <= 10; i++) r.g.moveAll([{ id: 1, x: 100, y: 200 - 8 * i }, { id: 2, x: 140, y: 200 - 8 * i }]);
  r.g.up(1);
  r.g.up(2);
  assert.equal(r.sent.length, 0);
  assert.equal(r.pans.reduce((a, p) => a + p.y, 0), -80, "the fingers' 80 px, slop included");
});

test("a scrolling stage follows the finger within its bounds and hands on the rest", () => {
  // Fingers moving left (dx < 0) scroll the content left: the position grows.
  assert.deepEqual(scrollStep(0, 280, -50), { pos: 50, rest: 0 });
  assert.deepEqual(scrollStep(250, 280, -50), { pos: 280, rest: -20 });
  assert.deepEqual(scrollStep(280, 280, -50), { pos: 280, rest: -50 });
  assert.deepEqual(scrollStep(30, 280, 50), { pos: 0, rest: 20 });
  // A stage that does not scroll takes nothing.
  assert.deepEqual(scrollStep(0, 0, 40), { pos: 0, rest: 40 });
  assert.deepEqual(scrollStep(0, -5, -40), { pos: 0, rest: -40 });
});

test("two fingers spreading pinch: zoom steps about their centre, no scroll", () => {
  const r = recogniser("direct");
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  for (let i = 1; i <= 5; i++) {
    r.clock.advance(16);
    r.g.moveAll([{ id: 1, x: 100 - 10 * i, y: 200 }, { id: 2, x: 140 + 10 * i, y: 200 }]);
  }
  r.g.up(1);
  r.g.up(2);
  assert.equal(r.sent.length, 0, "nothing for the desktop");
  assert.ok(r.zooms.length > 0);
  const total = r.zooms.reduce((a, z) => a * z.ratio, 1);
  // The whole spread, slop included: 40 to 140 CSS px apart.
  assert.ok(Math.abs(total - 3.5) < 1e-9, `total ratio ${total}`);
  assert.deepEqual(r.zooms[0].to, { x: 120, y: 200 });
  assert.ok(r.zooms.every((z) => z.from.x === 120 && z.to.x === 120));
});

test("a two-finger tap is a right click", () => {
  const r = recogniser("direct");
  r.g.down(1, 100, 200);
  r.g.down(2, 140, 200);
  r.clock.advance(100);
  r.g.up(1);
  r.g.up(2);
  assert.deepEqual(buttons(r.sent), ["3v@240,200", "3^@240,200"]);
});

test("a second finger ends a direct drag; a third gives the gesture up", () => {
  const r = recogniser("direct");
  r.g.down(1, 10, 110);
  stroke(r, 1, { x: 10, y: 110 }, { x: 60, y: 110 }, 2);
  r.g.down(2, 100, 110);
  assert.deepEqual(buttons(r.sent), ["1v@20,20", "1^@120,20"]);
  r.g.down(3, 150, 110);
  const before = r.sent.length;
  r.g.move(1, 0, 0);
  r.g.move(2, 300, 300);
  r.g.up(1);
  r.g.up(2);
  r.g.up(3);
  assert.equal(r.sent.length, before);
  assert.equal(r.zooms.length, 0);
});

test("a mode switch and a reset release a held button; a cancelled touch clicks nothing", () => {
  const r = recogniser("direct");
  r.g.down(1, 10, 110);
  stroke(r, 1, { x: 10, y: 110 }, { x: 60, y: 110 }, 2);
  r.g.setMode("trackpad");
  assert.deepEqual(buttons(r.sent), ["1v@20,20", "1^@120,20"]);
  assert.equal(r.g.currentMode, "trackpad");
  r.g.up(1); // a finger from before the switch: ignored
  r.g.down(5, 10, 110);
  r.g.cancel(5);
  r.clock.advance(LONG_PRESS_MS * 2);
  assert.deepEqual(buttons(r.sent), ["1v@20,20", "1^@120,20"]);
});

// ---------------------------------------------------------------------------
// Pinch zoom of the picture

function zoomed() {
  let changes = 0;
  const z = new PictureZoom(() => changes++);
  // 360x270 picture letterboxed in a 360x640 stage.
  z.place({ left: 0, top: 185, width: 360, height: 270 }, { width: 360, height: 640 });
  return { z, changes: () => changes };
}

test("pinch zoom keeps the picture point under the pinch centre", () => {
  const { z, changes } = zoomed();
  assert.equal(z.css(), "");
  z.pinch({ x: 90, y: 320 }, { x: 90, y: 320 }, 2);
  assert.equal(z.scale, 2);
  assert.equal(changes(), 1);
  const b = z.shownBox();
  // The point at (90, 135) of the picture (unzoomed) stays at (90, 320).
  assert.equal(b.left + 90 * 2, 90);
  assert.equal(b.top + 135 * 2, 320);
  assert.deepEqual([b.width, b.height], [720, 540]);
  assert.equal(z.css(), `translate(-90px, -135px) scale(2)`);
});

test("zoom stays within 1x..5x and the picture within the stage", () => {
  const { z } = zoomed();
  z.pinch({ x: 180, y: 320 }, { x: 180, y: 320 }, 100);
  assert.equal(z.scale, MAX_ZOOM);
  // Panned far right: the picture's left edge stops at the stage's.
  z.pan(10_000, 0);
  assert.equal(z.shownBox().left, 0);
  z.pan(-10_000, -10_000);
  const b = z.shownBox();
  assert.equal(b.left + b.width, 360);
  assert.equal(b.top + b.height, 640);
  z.pinch({ x: 180, y: 320 }, { x: 180, y: 320 }, 0.001);
  assert.equal(z.scale, 1);
  assert.deepEqual(z.shownBox(), { left: 0, top: 185, width: 360, height: 270 }, "back in its fitted place");
  z.pan(50, 50);
  assert.equal(z.css(), "", "no panning unzoomed");
});

test("a pinch whose centre moves pans the zoomed picture; reset puts it back", () => {
  const { z, changes } = zoomed();
  z.pinch({ x: 180, y: 320 }, { x: 180, y: 320 }, 3);
  const before = z.shownBox();
  z.pinch({ x: 180, y: 320 }, { x: 150, y: 300 }, 1);
  const after = z.shownBox();
  assert.deepEqual([after.left - before.left, after.top - before.top], [-30, -20]);
  // A pan returns what it could not take.
  z.pan(10_000, 0);
  assert.deepEqual(z.pan(5, 0), { x: 5, y: 0 });
  z.reset();
  assert.equal(z.scale, 1);
  assert.equal(z.css(), "");
  assert.deepEqual(z.pan(7, -3), { x: 7, y: -3 }, "unzoomed it takes nothing");
  const n = changes();
  z.reset();
  assert.equal(changes(), n, "a reset of nothing changes nothing");
});

test("reveal pans a zoomed picture so that a point is in view", () => {
  const { z } = zoomed();
  z.pinch({ x: 0, y: 185 }, { x: 0, y: 185 }, 4);
  // A point right of the stage, on the picture.
  z.reveal({ x: 500, y: 300 }, 24);
  assert.equal(z.shownBox().left, -(500 - (360 - 24)));
  const { z: flat } = zoomed();
  flat.reveal({ x: 500, y: 300 }, 24);
  assert.equal(flat.css(), "", "nothing to pan at 1x");
});

test("a new layout keeps the zoom's scale and clamps its offset", () => {
  const { z } = zoomed();
  z.pinch({ x: 360, y: 640 }, { x: 360, y: 640 }, 2);
  z.place({ left: 0, top: 0, width: 640, height: 480 }, { width: 640, height: 480 });
  assert.equal(z.scale, 2);
  const b = z.shownBox();
  assert.ok(b.left <= 0 && b.left + b.width >= 640);
  assert.ok(b.top <= 0 && b.top + b.height >= 480);
});
