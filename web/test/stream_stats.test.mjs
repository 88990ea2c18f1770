// The stream's figures as the page counts them (stream_stats.ts), without a
// browser: running totals, the one-second windows behind the frame rate,
// bitrate and medians (a value exactly a second old still counts), what a
// striped stream's further bands count for, a new connection's fresh
// windows, and the latency log kept for measurements over a run. Times are
// passed in, so nothing waits.
//
//   node --test web/test/stream_stats.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { StreamStats } = await load("src/stream_stats.ts");

test("a fresh page has counted nothing and knows no latency or decode time", () => {
  assert.deepEqual(new StreamStats().snapshot(0), {
    fps: 0,
    latencyMs: null,
    latencyP50Ms: null,
    kbps: 0,
    decodeMs: null,
    decodeP50Ms: null,
    framesDecoded: 0,
    framesDrawn: 0,
    framesSkipped: 0,
    lastFrameId: 0,
    width: 0,
    height: 0,
    droppedFrames: 0,
    decoderErrors: 0,
    keyframeRequests: 0,
  });
});

test("fps counts the pictures of the last second, its first millisecond included", () => {
  const s = new StreamStats();
  for (let t = 0; t < 1000; t += 100) s.decoded(t, t / 100 + 1, 2, 30);
  assert.equal(s.snapshot(900).fps, 10);
  assert.equal(s.snapshot(1000).fps, 10, "the frame at 0 is exactly a second old");
  assert.equal(s.snapshot(1001).fps, 9);
  assert.equal(s.snapshot(1950).fps, 0);
  assert.equal(s.snapshot(1950).framesDecoded, 10, "the totals stay");
  assert.equal(s.snapshot(1950).lastFrameId, 10);
});

test("a striped picture's further bands count as decoded frames, not as pictures", () => {
  const s = new StreamStats();
  // Two captures of four bands each: the first band of each starts the picture.
  for (let i = 0; i < 8; i++) s.decoded(10 * i, i + 1, 1, null, i % 4 === 0);
  const snap = s.snapshot(100);
  assert.equal(snap.fps, 2);
  assert.equal(snap.framesDecoded, 8);
});

test("latency and decode time: the last frame's, and the median over the second", () => {
  const s = new StreamStats();
  s.decoded(0, 1, 4, 40);
  s.decoded(10, 2, 1, 10);
  s.decoded(20, 3, 3, 30);
  let snap = s.snapshot(30);
  assert.equal(snap.latencyMs, 30);
  assert.equal(snap.latencyP50Ms, 30, "the middle of 10, 30, 40");
  assert.equal(snap.decodeMs, 3);
  assert.equal(snap.decodeP50Ms, 3, "the middle of 1, 3, 4");
  // An even count: the mean of the two middle values.
  s.decoded(30, 4, 2, 20);
  snap = s.snapshot(40);
  assert.equal(snap.latencyP50Ms, 25);
  assert.equal(snap.decodeP50Ms, 2.5);
  // Once the older frames leave the window only the newer ones count.
  snap = s.snapshot(1005);
  assert.equal(snap.latencyP50Ms, 20, "the frames from 5 ms on: 10, 30, 20");
  assert.equal(snap.decodeP50Ms, 2, "1, 3, 2");
  assert.equal(s.snapshot(2000).latencyP50Ms, null);
  assert.equal(s.snapshot(2000).latencyMs, 20, "the last frame's stays");
});

test("a frame without a latency (clocks not yet related) says null and leaves the median alone", () => {
  const s = new StreamStats();
  s.decoded(0, 1, 1, 50);
  s.decoded(10, 2, 1, null);
  const snap = s.snapshot(20);
  assert.equal(snap.latencyMs, null);
  assert.equal(snap.latencyP50Ms, 50);
  assert.deepEqual(s.latencies(), [50]);
});

test("kbps: the payload bytes received in the last second, in kilobits", () => {
  const s = new StreamStats();
  s.received(0, 1000);
  s.received(500, 250);
  assert.equal(s.snapshot(600).kbps, 10);
  assert.equal(s.snapshot(1200).kbps, 2);
  assert.equal(s.snapshot(1600).kbps, 0);
});

test("drawn frames set the size; the client's counters show as they are", () => {
  const s = new StreamStats();
  s.drawn(1280, 720);
  s.drawn(1920, 1080);
  s.framesSkipped = 3;
  s.droppedFrames = 4;
  s.decoderErrors = 1;
  s.keyframeRequests = 2;
  const snap = s.snapshot(0);
  assert.deepEqual(
    [snap.framesDrawn, snap.width, snap.height, snap.framesSkipped, snap.droppedFrames, snap.decoderErrors, snap.keyframeRequests],
    [2, 1920, 1080, 3, 4, 1, 2],
  );
});

test("a new connection empties the windows and forgets the last frame's times; the totals run on", () => {
  const s = new StreamStats();
  s.received(0, 500);
  s.decoded(0, 9, 2, 20);
  s.drawn(640, 480);
  s.resetWindows();
  const snap = s.snapshot(10);
  assert.deepEqual(
    [snap.fps, snap.kbps, snap.latencyMs, snap.latencyP50Ms, snap.decodeMs, snap.decodeP50Ms],
    [0, 0, null, null, null, null],
  );
  assert.deepEqual([snap.framesDecoded, snap.framesDrawn, snap.lastFrameId, snap.width], [1, 1, 9, 640]);
  assert.deepEqual(s.latencies(), [20], "the run's log is the page's");
});

test("the latency log keeps the newest 20000, and hands out a copy", () => {
  const s = new StreamStats();
  for (let i = 0; i < 20005; i++) s.decoded(i, i + 1, 1, i);
  const log = s.latencies();
  assert.equal(log.length, 20000);
  assert.equal(log[0], 5);
  assert.equal(log.at(-1), 20004);
  log.length = 0;
  assert.equal(s.latencies().length, 20000);
});

test("after a long run nobody read, the windows hold the last second only", () => {
  const s = new StreamStats();
  // A long run at 1 ms per frame, never read: each push prunes what is older than a second.
  for (let t = 0; t < 5000; t++) {
    s.decoded(t, t + 1, 1, null);
    s.received(t, 100);
  }
  const snap = s.snapshot(4999);
  assert.equal(snap.fps, 1001, "from 3999 to 4999 ms, both ends included");
  assert.equal(snap.kbps, (1001 * 100 * 8) / 1000);
});
