// How long a page takes from navigation to its first decoded frame. Printed
// for the record, not asserted: timing on a shared machine is not pass/fail.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const LOADS = 3; // one cold (fresh profile), then reloads
const opts = { timeout: e2e.TEST_TIMEOUT_MS };

// Page-side marks, in ms since navigation start: DOMContentLoaded, the
// WebSocket opening, and the canvas first showing a frame.
function timingProbe() {
  const mark = { domContentLoaded: null, wsOpen: null, firstFrame: null };
  Object.defineProperty(window, "__voxlE2eTiming", { value: mark });
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("open", () => {
        mark.wsOpen ??= performance.now();
      });
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    mark.domContentLoaded = performance.now();
    // The page may put a video element in the canvas's place: watch
    // whichever element is #screen.
    const check = () => {
      const screen = document.getElementById("screen");
      if (mark.firstFrame === null && screen && !screen.hidden) mark.firstFrame = performance.now();
      return mark.firstFrame !== null;
    };
    if (check()) return;
    const mo = new MutationObserver(() => {
      if (check()) mo.disconnect();
    });
    mo.observe(document.getElementById("stage") ?? document.body,
               { attributes: true, attributeFilter: ["hidden"], childList: true, subtree: true });
  });
}

const scope = new e2e.Scope();
let voxl;
before(async () => {
  voxl = await e2e.startVoxl(scope);
  await e2e.setRootColor(voxl.display, "336699");
}, opts);
after(() => scope.close());

const ms = (v) => (v === null ? "-" : `${Math.round(v)} ms`);

test("time from page load to first frame (printed)", opts, async () => {
  const { context, page } = await e2e.launchBrowser(scope);
  await context.addInitScript(timingProbe);
  const rows = [];
  for (let i = 0; i < LOADS; ++i) {
    const start = performance.now();
    if (i === 0) await page.goto(voxl.url, { waitUntil: "commit" });
    else await page.reload({ waitUntil: "commit" });
    await e2e.waitInPage(
      page,
      () => window.__voxlE2eTiming?.firstFrame != null && window.voxl?.stats().framesDecoded >= 1,
      undefined,
      { what: "the first frame" },
    );
    const fromCall = performance.now() - start;
    const mark = await page.evaluate(() => ({ ...window.__voxlE2eTiming }));
    const s = await e2e.stats(page);
    assert.equal(s.connections, 1, "each load opens one connection");
    rows.push({ load: i === 0 ? "cold" : `reload ${i}`, fromCall, ...mark });
  }
  const lines = rows.map(
    (r) =>
      `page load to first frame (${r.load}): ${ms(r.firstFrame)} from navigation start ` +
      `(DOMContentLoaded ${ms(r.domContentLoaded)}, WebSocket open ${ms(r.wsOpen)}); ` +
      `${ms(r.fromCall)} from the goto/reload call`,
  );
  for (const line of lines) console.log(line);
});
