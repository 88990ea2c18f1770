// The encoding ladder in the stats overlay, without a browser: what the
// server's stats message says about the ladder, as text.
// The TypeScript is bundled in memory (bundle.mjs).
//
//   node --test web/test/ladder_figures.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { describeLadder } = await load("src/panel/ladder_figures.ts");

const message = {
  type: "stats",
  viewer: { rung: 1, moving_to: -1 },
  ladder: {
    max_encodes: 2,
    affordable: 2,
    work_pct: 41,
    moves: 1,
    rungs: [
      { rung: 0, consumers: 1, target_kbps: 30000, kbps: 20712.4, fps: 51 },
      { rung: 1, consumers: 2, target_kbps: 1900, kbps: 1850, fps: 30 },
    ],
  },
};

test("each coded rung has a line under the ladder's", () => {
  assert.deepEqual(describeLadder(message), [
    "ladder   2 of 2 encodes  work 41%  you: rung 1  moves 1",
    "  rung 0  1 viewer  30000 kbit/s ceiling  20712 kbit/s  51 fps",
    "  rung 1  2 viewers  1900 kbit/s ceiling  1850 kbit/s  30 fps",
  ]);
});

test("a viewer on its way to another rung shows both", () => {
  const m = { ...message, viewer: { rung: 1, moving_to: 0 } };
  assert.match(describeLadder(m)[0], /you: rung 1 → 0/);
});

test("a shrunk ladder says what the machine affords", () => {
  const m = { ...message, ladder: { ...message.ladder, affordable: 1, rungs: [message.ladder.rungs[0]] } };
  assert.match(describeLadder(m)[0], /^ladder   1 of 2 encodes/);
  assert.equal(describeLadder(m).length, 2);
});

test("no ladder, or a malformed one, shows nothing or dashes, never throws", () => {
  assert.deepEqual(describeLadder(null), []);
  assert.deepEqual(describeLadder({ type: "stats" }), []);
  assert.deepEqual(describeLadder({ ladder: "two" }), []);
  const odd = describeLadder({ ladder: { max_encodes: "2", rungs: [null, 7, { rung: 0, consumers: "x" }] }, viewer: [] });
  assert.equal(odd[0], "ladder   - of - encodes  work -%  you: rung -  moves -");
  assert.equal(odd.length, 2);
  assert.match(odd[1], /^  rung 0  - viewers/);
});
