// Desktop sound in Chromium: a tone played into a private PulseAudio comes
// out of the page's audio graph once the user clicks (autoplay policy),
// decoded by WebCodecs and measured by an AnalyserNode; mute silences it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const scope = new e2e.Scope();
let voxl;
let pulse;
before(async () => {
  pulse = await e2e.startPulse(scope);
  await e2e.playTone(scope, pulse, 440, 120);
  voxl = await e2e.startVoxl(scope, { env: pulse.env });
}, opts);
after(() => scope.close());

const audio = (page) => page.evaluate(() => window.voxl.audio());

test("the page plays the desktop's tone after a click, and mute silences it", opts, async () => {
  // --mute-audio: nothing reaches the machine's speakers; the graph still runs.
  const { page, messages } = await e2e.launchBrowser(scope, { args: [...e2e.CHROMIUM_ARGS, "--mute-audio"] });
  await page.goto(voxl.url);
  await e2e.waitStreaming(page);
  await e2e.waitInPage(page, () => window.voxl.audio().configured && window.voxl.audio().packets > 0, null, {
    what: "audio packets",
  });
  // A desktop browser starts sound only after a gesture; headless Chromium
  // may start it at once, so the click is the path, not an assertion.
  await page.mouse.click(100, 100);
  await e2e.waitInPage(
    page,
    () => {
      const a = window.voxl.audio();
      return a.running && a.decodedFrames >= 200 && a.jitter && a.jitter.playedFrames > 48000 && a.analyserLevel > 0.05;
    },
    null,
    { what: "audible decoded audio" },
  );
  const playing = await audio(page);
  const video = await e2e.stats(page);
  assert.equal(playing.errors, 0, messages.join("\n"));
  assert.ok(playing.jitter.targetMs <= 60, `jitter target ${playing.jitter.targetMs} ms`);

  // The sound controls live in the control panel.
  await page.click("#panel-toggle");
  await page.click("#audio-mute");
  await e2e.waitInPage(page, () => window.voxl.audio().muted && window.voxl.audio().analyserLevel < 0.001, null, {
    what: "silence once muted",
  });
  await page.click("#audio-mute");
  await e2e.waitInPage(page, () => !window.voxl.audio().muted && window.voxl.audio().analyserLevel > 0.05, null, {
    what: "sound again once unmuted",
  });
  console.log(
    `audio: ${playing.decodedFrames} frames decoded, level ${playing.analyserLevel.toFixed(3)}, ` +
      `jitter buffer ${playing.jitter.bufferedMs.toFixed(1)} ms (target ${playing.jitter.targetMs.toFixed(1)} ms), ` +
      `${playing.jitter.underruns} underruns, lost ${playing.lost}; ` +
      `audio capture -> speakers ${playing.latencyMs === null ? "-" : playing.latencyMs.toFixed(1)} ms ` +
      `(output latency ${playing.outputLatencyMs.toFixed(1)} ms; capture -> received ` +
      `${playing.arrivalLatencyMs?.toFixed(1)} ms, -> decoded ${playing.decodedLatencyMs?.toFixed(1)} ms; ` +
      `received -> decoded ${playing.decodeWaitMs?.toFixed(1)} ms), ` +
      `video capture -> decoded p50 ${video.latencyP50Ms === null ? "-" : video.latencyP50Ms.toFixed(1)} ms`,
  );
});
