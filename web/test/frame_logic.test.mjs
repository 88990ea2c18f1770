// Pure logic of the page's video path, without a browser: which frames the
// presenter draws, skips and closes, how the benchmarks' marker is read, and
// what a browser that cannot decode the stream is told.
// The TypeScript is bundled in memory (bundle.mjs).
//
//   node --test web/test/frame_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { FramePresenter } = await load("src/video/frame_presenter.ts");
const { decodeMarkerWord, markerCrc8, markerCellFromQuery } = await load("src/video/frame_marker.ts");
const { undecodableMessage } = await load("src/video/decoder_hint.ts");

function fakeFrame(id) {
  return { id, closed: 0, close() { this.closed++; } };
}

function presenter({ manual = true } = {}) {
  const ticks = [];
  const log = { drawn: [], skipped: [], after: [], failed: [] };
  const p = new FramePresenter(
    {
      draw: (f, info, done) => { log.drawn.push(info); done(); },
      after: (f, info) => { log.after.push(info); f.close(); },
      skipped: (info) => log.skipped.push(info),
      failed: (e) => log.failed.push(e),
    },
    manual ? (cb) => ticks.push(cb) : null,
  );
  const tick = () => ticks.splice(0).forEach((cb) => cb());
  return { p, log, tick, ticks };
}

test("two frames wait and are drawn a refresh apart; a third replaces the oldest; every frame is closed once", () => {
  const { p, log, tick, ticks } = presenter();
  const frames = [1, 2, 3].map(fakeFrame);
  frames.forEach((f) => p.offer(f, f.id));
  assert.equal(ticks.length, 1, "one animation frame asked for");
  assert.deepEqual(log.skipped, [1]);
  tick();
  assert.deepEqual(log.drawn, [2]);
  tick();
  assert.deepEqual(log.drawn, [2, 3]);
  assert.deepEqual(log.after, [2, 3]);
  for (const f of frames) assert.equal(f.closed, 1, `frame ${f.id} closed once`);
  const f4 = fakeFrame(4);
  p.offer(f4, 4);
  tick();
  assert.deepEqual(log.drawn, [2, 3, 4]);
  assert.equal(f4.closed, 1);
});

test("a frame left waiting is passed over when a newer one joins it, so a backlog lasts one refresh", () => {
  const { p, log, tick } = presenter();
  [1, 2].forEach((id) => p.offer(fakeFrame(id), id));
  tick(); // 1 drawn, 2 left waiting
  p.offer(fakeFrame(3), 3);
  tick(); // 2 has waited a refresh and 3 is here: 3 is drawn
  assert.deepEqual(log.drawn, [1, 3]);
  assert.deepEqual(log.skipped, [2]);
  // Frames that come one a refresh are all drawn.
  for (const id of [4, 5, 6]) {
    p.offer(fakeFrame(id), id);
    tick();
  }
  assert.deepEqual(log.drawn, [1, 3, 4, 5, 6]);
});

test("the clock keeps ticking a while after the last frame, then stops until the next", () => {
  const { p, log, tick, ticks } = presenter();
  p.offer(fakeFrame(1), 1);
  let callbacks = 0;
  while (ticks.length > 0 && callbacks < 1000) {
    tick();
    callbacks++;
  }
  assert.deepEqual(log.drawn, [1]);
  assert.ok(callbacks > 10 && callbacks <= 40, `${callbacks} animation frames`);
  p.offer(fakeFrame(2), 2);
  assert.equal(ticks.length, 1, "asked for again by a new frame");
  tick();
  assert.deepEqual(log.drawn, [1, 2]);
});

test("reset closes the waiting frame and cancels its draw", () => {
  const { p, log, tick } = presenter();
  const f = fakeFrame(1);
  p.offer(f, 1);
  p.reset();
  tick();
  assert.deepEqual(log.drawn, []);
  assert.equal(f.closed, 1);
});

test("without an animation-frame clock every frame is drawn at once", () => {
  const { p, log } = presenter({ manual: false });
  const frames = [1, 2].map(fakeFrame);
  frames.forEach((f) => p.offer(f, f.id));
  assert.deepEqual(log.drawn, [1, 2]);
  assert.deepEqual(log.skipped, []);
  for (const f of frames) assert.equal(f.closed, 1);
});

test("a draw that throws closes the frame and is reported", () => {
  const failed = [];
  const p = new FramePresenter(
    { draw: () => { throw new Error("boom"); }, after: () => assert.fail("not drawn"), skipped: () => {}, failed: (e) => failed.push(e) },
    null,
  );
  const f = fakeFrame(1);
  p.offer(f, 1);
  assert.equal(f.closed, 1);
  assert.equal(failed.length, 1);
});

test("presenter slots: each stripe's bands wait, an animation frame draws each stripe's oldest in stripe order", () => {
  const ticks = [];
  const log = { drawn: [], skipped: [] };
  const p = new FramePresenter(
    {
      draw: (f, info, done) => { log.drawn.push(info); done(); },
      after: (f) => f.close(),
      skipped: (info) => log.skipped.push(info),
      failed: (e) => assert.fail(String(e)),
    },
    (cb) => ticks.push(cb),
  );
  const frames = ["s2a", "s0", "s2b", "s3"].map((id) => fakeFrame(id));
  p.offer(frames[0], "s2a", 2);
  p.offer(frames[1], "s0", 0);
  p.offer(frames[2], "s2b", 2); // waits behind stripe 2's first band
  p.offer(frames[3], "s3", 3);
  assert.equal(ticks.length, 1, "one animation frame asked for");
  assert.deepEqual(log.skipped, []);
  ticks.splice(0).forEach((cb) => cb());
  assert.deepEqual(log.drawn, ["s0", "s2a", "s3"]);
  ticks.splice(0).forEach((cb) => cb());
  assert.deepEqual(log.drawn, ["s0", "s2a", "s3", "s2b"]);
  for (const f of frames) assert.equal(f.closed, 1, `${f.id} closed once`);

  // discard(): what waits is skipped and closed, and a draw already asked for draws only what comes after.
  const old = fakeFrame("old");
  p.offer(old, "old", 1);
  p.discard();
  const fresh = fakeFrame("new");
  p.offer(fresh, "new", 0);
  ticks.splice(0).forEach((cb) => cb());
  assert.deepEqual(log.drawn, ["s0", "s2a", "s3", "s2b", "new"]);
  assert.deepEqual(log.skipped, ["old"]);
  assert.equal(old.closed, 1);
  assert.equal(fresh.closed, 1);

  // reset() closes every slot's waiting frame without drawing it.
  const a = fakeFrame("a");
  const b = fakeFrame("b");
  p.offer(a, "a", 0);
  p.offer(b, "b", 5);
  p.reset();
  ticks.splice(0).forEach((cb) => cb());
  assert.equal(log.drawn.length, 5);
  assert.equal(a.closed + b.closed, 2);
});

// A corner of cells drawn as the workloads draw the marker (bench/marker).
function cornerFor(word, cell, { grey = -1 } = {}) {
  return (x, y) => {
    const i = Math.floor(y / cell) * 16 + Math.floor(x / cell);
    if (i === grey) return 128;
    return (word >>> i) & 1 ? 235 : 20;
  };
}

test("the marker's word is read back, and a cell caught mid-change makes it unreadable", () => {
  for (const counter of [0, 1, 0x123456, 0xffffff]) {
    const word = ((markerCrc8(counter) << 24) | counter) >>> 0;
    assert.equal(decodeMarkerWord(cornerFor(word, 16), 16), word);
    assert.equal(decodeMarkerWord(cornerFor(word, 8), 8), word);
  }
  assert.equal(decodeMarkerWord(cornerFor(0x5a5a5a, 16, { grey: 7 }), 16), null);
});

test("the marker's cell size comes from ?marker=N, within bounds", () => {
  assert.equal(markerCellFromQuery("?marker=16"), 16);
  assert.equal(markerCellFromQuery("?stats&marker=8"), 8);
  assert.equal(markerCellFromQuery(""), 0);
  assert.equal(markerCellFromQuery("?marker=7"), 0);
  assert.equal(markerCellFromQuery("?marker=1000"), 0);
});

test("a browser that cannot decode is told why where the reason is known (Firefox on Linux: FFmpeg)", () => {
  const firefoxLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0";
  const firefoxAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:153.0) Gecko/153.0 Firefox/153.0";
  const firefoxWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:153.0) Gecko/20100101 Firefox/153.0";
  const chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
  assert.match(undecodableMessage("avc1.42C029", firefoxLinux), /^this browser cannot decode avc1\.42C029: .*libavcodec59/);
  assert.match(undecodableMessage(null, firefoxLinux), /^this browser cannot decode the stream: .*FFmpeg/);
  for (const ua of [firefoxAndroid, firefoxWindows, chromium, ""]) {
    assert.equal(undecodableMessage("avc1.42C029", ua), "this browser cannot decode avc1.42C029", ua);
  }
  // Another codec is not FFmpeg's business in this message.
  assert.equal(undecodableMessage("av01.0.08M.08", firefoxLinux), "this browser cannot decode av01.0.08M.08");
});

const { PresentedFrames } = await load("src/video/presented_frames.ts");

// A video element whose frame callbacks the test calls itself.
function fakeVideo() {
  const v = { pending: null, cancelled: 0 };
  v.requestVideoFrameCallback = (cb) => { v.pending = cb; return 7; };
  v.cancelVideoFrameCallback = () => { v.cancelled++; v.pending = null; };
  v.present = (now, presentedFrames) => { const cb = v.pending; v.pending = null; cb?.(now, { presentedFrames }); };
  return v;
}

test("presented frames: the compositor's count over the last second, jumps included", () => {
  const v = fakeVideo();
  const p = PresentedFrames.watch(v);
  assert.equal(p.perSecond(0), 0);
  v.present(10, 100);           // the first callback counts itself
  v.present(26, 101);
  v.present(60, 104);           // two presented between callbacks
  assert.equal(p.perSecond(60), 5);
  assert.equal(p.perSecond(1015), 4, "the first is over a second old");
  v.present(1100, 3);           // a new source: the count started again
  assert.equal(p.perSecond(1100), 1);
  assert.equal(p.total(), 6);
  p.stop();
  assert.equal(v.cancelled, 1);
  assert.equal(PresentedFrames.watch({}), null, "no requestVideoFrameCallback: no count");
});
