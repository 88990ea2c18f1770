// The drop link's two recovery figures and the timeline they are read from,
// on synthetic frame traces (no link, no browser):
//   node --test bench/runner/test/recovery.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { rateRecoveryAfterSteps, recoveryAfterSteps } from "../ipem_link.mjs";
import { summarise } from "../results.mjs";

// A 30 s window from t = 0 at 60 frames a second, except `slow` (a list of
// [from ms, to ms, frames a second, latency ms]).
function trace(slow) {
  const seen = [];
  const drawLog = new Map();
  let counter = 0;
  for (let ms = 0; ms < 30000;) {
    const part = slow.find(([from, to]) => ms >= from && ms < to);
    const fps = part ? part[2] : 60;
    const latency = part ? part[3] : 40;
    const t = 1e9 + ms * 1000;
    drawLog.set(++counter, t - latency * 1000);
    seen.push([counter, t]);
    ms += 1000 / fps;
  }
  return summarise({ seen, startUs: 1e9, endUs: 1e9 + 30000 * 1000, drawLog, pictures: seen.length, unreadable: 0 });
}

test("the timeline counts the frames of each 100 ms step", () => {
  const r = trace([[10000, 12000, 10, 40]]);
  const frames = r.latency_timeline.frames;
  assert.equal(frames.length, 301);
  assert.equal(frames.reduce((a, n) => a + n, 0), r.frames);
  assert.ok(frames[50] >= 5 && frames[50] <= 7, `${frames[50]} at 5 s`);
  assert.ok(frames[110] <= 1, `${frames[110]} at 11 s`);
});

test("full rate after a step: the first second that holds 90 % of the frames drawn", () => {
  // The rate steps down at 10 s and up at 25 s (ipem started 1 s before
  // the window); the stream is slow from 10 s until 26.5 s.
  const r = trace([[10000, 26500, 20, 300]]);
  const full = rateRecoveryAfterSteps(r.latency_timeline, [11000, 26000], 1e6 - 1000, 60);
  assert.equal(full[0], null, "never full while the link is slow");
  assert.ok(full[1] >= 1400 && full[1] <= 1600, `${full[1]} ms after the step up`);
  const late = recoveryAfterSteps(r.latency_timeline, [11000, 26000], 1e6 - 1000);
  assert.equal(late[0], null);
  assert.ok(late[1] >= 1400 && late[1] <= 1600, `${late[1]} ms until the latency was under 150 ms`);
});

test("no timeline or no drawn rate: no figure", () => {
  assert.equal(rateRecoveryAfterSteps(undefined, [1000], 0, 60), null);
  assert.equal(rateRecoveryAfterSteps({ start_unix_ms: 0, step_ms: 100, worst_ms: [] }, [1000], 0, 60), null);
  assert.equal(rateRecoveryAfterSteps(trace([]).latency_timeline, [1000], 1e6, 0), null);
});
