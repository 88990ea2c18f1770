// Pure logic of the page's desktop sound, without a browser: the jitter
// buffer between decoded packets and the sound card (when it starts, what
// it plays, how it rides out an underrun, drops late sound and follows the
// arrival jitter), and the packets' sequence numbers (losses, wraparound,
// late packets).
//
//   node --test web/test/audio_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { JitterBuffer, MIN_TARGET_MS, MAX_TARGET_MS } = await load("src/audio/jitter_buffer.ts");
const { PacketSequence } = await load("src/audio/packet_sequence.ts");

const RATE = 48000;
const QUANTUM = 128; // frames the sound card asks for at a time
const frames = (ms) => Math.round((ms * RATE) / 1000);

// A chunk of `n` frames: channel c holds first + i + c * 0.5 at frame i, so
// every sample tells where it came from.
function chunk(n, first, channels = 2) {
  return Array.from({ length: channels }, (_, c) => Float32Array.from({ length: n }, (_, i) => first + i + c * 0.5));
}

function pull(jb, n = QUANTUM, channels = 2) {
  const out = Array.from({ length: channels }, () => new Float32Array(n).fill(-1));
  jb.pull(out);
  return out;
}

test("nothing plays until the target is buffered; then the samples come out in order, across chunks", () => {
  const jb = new JitterBuffer(RATE);
  assert.equal(jb.stats().targetMs, MIN_TARGET_MS);
  // 10 ms is half the starting target: silence, and nothing taken.
  jb.push(chunk(frames(10), 0), 1_000_000);
  let out = pull(jb);
  assert.ok(out.every((ch) => ch.every((v) => v === 0)));
  assert.equal(jb.stats().bufferedMs, 10);
  assert.equal(jb.stats().playedFrames, 0);
  assert.equal(jb.stats().underruns, 0);

  // Another 10 ms, numbered on from the first chunk: now it plays.
  jb.push(chunk(frames(10), frames(10)), 1_010_000);
  out = pull(jb);
  assert.deepEqual(Array.from(out[0].subarray(0, 3)), [0, 1, 2]);
  assert.deepEqual(Array.from(out[1].subarray(0, 3)), [0.5, 1.5, 2.5]);
  // Quanta that straddle the two chunks are seamless.
  const played = [...out[0]];
  while (jb.stats().playedFrames < frames(20) - QUANTUM) played.push(...pull(jb)[0]);
  assert.deepEqual(played, Array.from({ length: played.length }, (_, i) => i));
  assert.equal(jb.stats().underruns, 0);
});

test("a mono stream fills every output channel; an empty chunk is ignored", () => {
  const jb = new JitterBuffer(RATE);
  jb.push([new Float32Array(0)], 5);
  assert.equal(jb.stats().bufferedMs, 0);
  jb.push(chunk(frames(20), 7, 1), 1);
  const out = pull(jb, QUANTUM, 2);
  assert.deepEqual(Array.from(out[0]), Array.from(out[1]));
  assert.equal(out[0][0], 7);
  // A zero-length request takes nothing.
  jb.pull([new Float32Array(0), new Float32Array(0)]);
  assert.equal(jb.stats().playedFrames, QUANTUM);
});

test("running dry plays silence for the rest, counts an underrun, and waits for a larger target", () => {
  const jb = new JitterBuffer(RATE);
  const n = frames(20) + 32; // 32 frames into the last quantum
  jb.push(chunk(n, 0), 0);
  let out;
  for (let left = n; left > 0; left -= QUANTUM) out = pull(jb);
  // The last quantum: what was left, then zeros.
  const tail = n % QUANTUM;
  assert.equal(out[0][tail - 1], n - 1);
  assert.ok(out[0].subarray(tail).every((v) => v === 0));
  const s = jb.stats();
  assert.equal(s.underruns, 1);
  assert.equal(s.bufferedMs, 0);
  assert.equal(s.targetMs, MIN_TARGET_MS + 5);
  // It re-buffers: 20 ms no longer starts it, 25 ms does.
  jb.push(chunk(frames(20), 1000), 1);
  assert.ok(pull(jb)[0].every((v) => v === 0));
  jb.push(chunk(frames(5), 1000 + frames(20)), 2);
  assert.equal(pull(jb)[0][0], 1000);
});

test("repeated underruns grow the target to at most the largest", () => {
  const jb = new JitterBuffer(RATE);
  for (let i = 0; i < 20; ++i) {
    // Exactly the target, then dry: one underrun each round.
    const target = frames(jb.stats().targetMs);
    jb.push(chunk(target, 0), i);
    while (jb.stats().bufferedMs > 0) pull(jb);
    if (target % QUANTUM === 0) pull(jb);
  }
  assert.equal(jb.stats().targetMs, MAX_TARGET_MS);
  assert.ok(jb.stats().underruns >= 8);
});

test("a burst beyond the cap drops the oldest sound at once", () => {
  const jb = new JitterBuffer(RATE);
  // 200 ms arrive together (a stalled connection catching up).
  for (let i = 0; i < 20; ++i) jb.push(chunk(frames(10), i * frames(10)), i * 10_000);
  const s = jb.stats();
  assert.equal(s.bufferedMs, MAX_TARGET_MS + 20);
  assert.equal(s.droppedMs, 200 - (MAX_TARGET_MS + 20));
  // What plays is the newest sound: the first sample after the dropped ones.
  const out = pull(jb);
  assert.equal(out[0][0], frames(200 - (MAX_TARGET_MS + 20)));
  // ...and its capture time is that sample's.
  assert.equal(jb.stats().playingCaptureUs, 120_000);
});

test("held above the target for 250 ms, the excess is dropped; below it, nothing is", () => {
  const jb = new JitterBuffer(RATE);
  // 70 ms buffered, then fed exactly what it plays: the level stays 50 ms
  // above the 20 ms target.
  jb.push(chunk(frames(70), 0), 0);
  let next = frames(70);
  let dropped = 0;
  let quanta = 0;
  while (quanta < 200 && dropped === 0) {
    pull(jb);
    ++quanta;
    jb.push(chunk(QUANTUM, next), 0);
    next += QUANTUM;
    dropped = jb.stats().droppedMs;
  }
  const s = jb.stats();
  assert.ok(dropped > 0, "dropped once it stayed high");
  // Not before 250 ms of it.
  assert.equal(quanta, Math.ceil(frames(250) / QUANTUM));
  assert.ok(Math.abs(s.bufferedMs - s.targetMs) < (QUANTUM * 1000) / RATE + 1e-9, JSON.stringify(s));
  assert.equal(s.underruns, 0);

  // A buffer at its target, fed as it plays, never drops.
  const steady = new JitterBuffer(RATE);
  steady.push(chunk(frames(20), 0), 0);
  for (let i = 0; i < 1000; ++i) {
    pull(steady);
    steady.push(chunk(QUANTUM, 0), 0);
  }
  assert.equal(steady.stats().droppedMs, 0);
  assert.equal(steady.stats().underruns, 0);
});

test("the target follows the level's swing over a second, within its bounds", () => {
  // Packets of 30 ms arriving in bursts: the level swings by about 30 ms.
  const jb = new JitterBuffer(RATE);
  jb.push(chunk(frames(30), 0), 0);
  let pulled = 0;
  for (let i = 0; i < 3 * (RATE / QUANTUM); ++i) {
    pull(jb);
    pulled += QUANTUM;
    if (pulled >= frames(30)) {
      jb.push(chunk(frames(30), 0), 0);
      pulled -= frames(30);
    }
  }
  const t = jb.stats().targetMs;
  assert.ok(t > MIN_TARGET_MS && t <= 40, `target ${t} ms for a 30 ms swing`);

  // A level that hardly moves brings it back down to the smallest.
  for (let i = 0; i < 3 * (RATE / QUANTUM); ++i) {
    pull(jb);
    jb.push(chunk(QUANTUM, 0), 0);
  }
  assert.equal(jb.stats().targetMs, MIN_TARGET_MS);
});

test("the capture time of what plays moves on within a chunk; the level is the quantum's RMS", () => {
  const jb = new JitterBuffer(RATE);
  const half = Array.from({ length: 2 }, () => new Float32Array(frames(20)).fill(0.5));
  jb.push(half, 2_000_000);
  pull(jb);
  assert.equal(jb.stats().playingCaptureUs, 2_000_000);
  assert.equal(jb.stats().level, 0.5);
  pull(jb);
  // The second quantum starts 128 frames (2.667 ms) into the chunk.
  assert.ok(Math.abs(jb.stats().playingCaptureUs - (2_000_000 + (QUANTUM * 1e6) / RATE)) < 1e-6);
  // Silence has level 0.
  const quiet = new JitterBuffer(RATE);
  pull(quiet);
  assert.equal(quiet.stats().level, 0);
  assert.equal(quiet.stats().playingCaptureUs, 0);
});

test("sequence numbers: in order, gaps counted by the packet, the wraparound, late and repeated packets", () => {
  const s = new PacketSequence();
  assert.equal(s.take(41), "next"); // the first, whatever its number
  assert.equal(s.take(42), "next");
  assert.equal(s.lost, 0);
  assert.equal(s.take(45), "gap"); // 43 and 44 missing
  assert.equal(s.lost, 2);
  // Late (reordered) and repeated packets are told apart and not counted.
  assert.equal(s.take(44), "late");
  assert.equal(s.take(45), "late");
  assert.equal(s.take(46), "next");
  assert.equal(s.lost, 2);

  // Across 2^32: 0xffffffff is followed by 0, and a gap over it is counted.
  const w = new PacketSequence();
  assert.equal(w.take(0xfffffffe), "next");
  assert.equal(w.take(0xffffffff), "next");
  assert.equal(w.take(0), "next");
  assert.equal(w.take(1), "next");
  assert.equal(w.take(0xffffffff), "late");
  assert.equal(w.lost, 0);
  const g = new PacketSequence();
  g.take(0xfffffffd);
  assert.equal(g.take(2), "gap"); // fffffffe, ffffffff, 0, 1 missing
  assert.equal(g.lost, 4);
  // Zero is an ordinary number, not "nothing yet": a loss right after it counts.
  assert.equal(g.take(4), "gap");
  assert.equal(g.lost, 5);

  // Half the number space behind counts as late, not as 2^31 lost.
  const far = new PacketSequence();
  far.take(10);
  assert.equal(far.take((10 + 0x80000000) >>> 0), "late");
  assert.equal(far.lost, 0);
  assert.equal(far.take((10 + 0x7fffffff) >>> 0), "gap");
  assert.equal(far.lost, 0x7ffffffe);

  // A new stream starts numbering afresh; the losses so far stay counted.
  far.reset();
  assert.equal(far.take(3), "next");
  assert.equal(far.take(4), "next");
  assert.equal(far.lost, 0x7ffffffe);
});
