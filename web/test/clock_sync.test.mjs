// Pure logic of the page's clock sync, without a browser: the offset
// between the server's wall clock and the page's from ping/pong round trips
// (the fastest recent one wins), stale and impossible pongs, and the
// capture-to-now latency it gives. A fake window holds the ping timer.
//
//   node --test web/test/clock_sync.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { ClockSync, wallMs } = await load("src/protocol/clock_sync.ts");

// window.setInterval and clearInterval, run by hand.
function fakeTimers() {
  const timers = new Map();
  let next = 1;
  globalThis.window = {
    setInterval: (fn, ms) => {
      timers.set(next, { fn, ms });
      return next++;
    },
    clearInterval: (id) => timers.delete(id),
  };
  return { timers, fire: () => [...timers.values()].forEach((t) => t.fn()) };
}

// A pong for a ping sent at page time `t`, answered when the server's clock
// read `serverWallMs`.
const pong = (t, serverWallMs) => ({ type: "pong", t, server_us: serverWallMs * 1000 });
const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a} is not ${b}`);

test("nothing is known before the first pong", () => {
  const c = new ClockSync();
  assert.equal(c.offsetMs, null);
  assert.equal(c.bestRttMs, null);
  assert.equal(c.lastRttMs, null);
  assert.equal(c.latencyMs(1e15, 100), null);
});

test("the offset assumes the server stamped its pong halfway through the round trip", () => {
  const c = new ClockSync();
  // Ping at page time 1000, pong at 1040: the midpoint is 1020, where the
  // server's clock read 5 s ahead of the page's.
  c.onPong(pong(1000, wallMs(1020) + 5000), 1040);
  near(c.offsetMs, 5000, "offset");
  assert.equal(c.bestRttMs, 40);
  assert.equal(c.lastRttMs, 40);

  // A server clock behind the page's gives a negative offset.
  const behind = new ClockSync();
  behind.onPong(pong(2000, wallMs(2005) - 750_000), 2010);
  near(behind.offsetMs, -750_000, "negative offset");
});

test("the fastest of the last eight round trips is trusted, the last one is reported as is", () => {
  const c = new ClockSync();
  // A slow round trip whose asymmetric delay skews its estimate...
  c.onPong(pong(0, wallMs(50) + 130), 100);
  // ...then a fast one with the true offset of 100.
  c.onPong(pong(200, wallMs(202) + 100), 204);
  near(c.offsetMs, 100, "fast sample wins");
  assert.equal(c.bestRttMs, 4);
  // Slower ones after it do not displace it.
  for (let i = 0; i < 6; ++i) c.onPong(pong(1000 + i * 100, wallMs(1000 + i * 100 + 10) + 160), 1000 + i * 100 + 20);
  near(c.offsetMs, 100, "still the fast sample");
  assert.equal(c.lastRttMs, 20);
  // Eight samples kept: a ninth pushes out the first slow one, the fast one
  // still rules...
  c.onPong(pong(3000, wallMs(3015) + 160), 3030);
  near(c.offsetMs, 100, "the fast sample is the oldest");
  // ...a tenth pushes it out, and the best of the rest (rtt 20) rules.
  c.onPong(pong(3100, wallMs(3115) + 160), 3130);
  near(c.offsetMs, 160, "the fast sample aged out");
  assert.equal(c.bestRttMs, 20);
});

test("pongs that cannot belong to this page's pings are ignored", () => {
  const c = new ClockSync();
  // From before a reload: sent "later" than now by this page's clock.
  c.onPong(pong(5000, wallMs(4000)), 1000);
  // Garbage and a round trip over a minute.
  c.onPong(pong(Number.NaN, wallMs(0)), 1000);
  c.onPong(pong(0, wallMs(30_000)), 60_001);
  assert.equal(c.offsetMs, null);
  // An instant round trip is fine.
  c.onPong(pong(700, wallMs(700) + 1), 700);
  near(c.offsetMs, 1, "zero rtt");
  assert.equal(c.bestRttMs, 0);
});

test("latency is the page's now minus the capture time, on the server's clock", () => {
  const c = new ClockSync();
  c.onPong(pong(1000, wallMs(1010) + 2500), 1020);
  // Captured at the server's 2500 ms ahead of page time 1100, shown at
  // page time 1133: 33 ms.
  const captureUs = (wallMs(1100) + 2500) * 1000;
  near(c.latencyMs(captureUs, 1133), 33, "latency");
  // A capture stamped after now (a clock that stepped) gives a negative figure, not a wrap.
  near(c.latencyMs(captureUs + 50_000, 1100), -50, "negative latency");
});

test("start pings at once and every two seconds; stop and a restart forget everything", () => {
  const { timers, fire } = fakeTimers();
  const c = new ClockSync();
  const sent = [];
  c.start((m) => sent.push(m));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, "ping");
  assert.equal(typeof sent[0].t, "number");
  assert.equal(timers.size, 1);
  assert.equal([...timers.values()][0].ms, 2000);
  fire();
  assert.equal(sent.length, 2);

  c.onPong(pong(0, wallMs(1) + 10), 2);
  assert.notEqual(c.offsetMs, null);
  // A restart (a new connection) drops the old timer and the samples.
  c.start((m) => sent.push(m));
  assert.equal(timers.size, 1);
  assert.equal(c.offsetMs, null);
  c.onPong(pong(0, wallMs(1) + 10), 2);
  c.stop();
  assert.equal(timers.size, 0);
  assert.equal(c.offsetMs, null);
  assert.equal(c.lastRttMs, null);
  delete globalThis.window;
});
