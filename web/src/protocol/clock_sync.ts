// Estimates the offset between the server's wall clock and this page's, so a
// frame's capture time (server clock) can be compared with when it was shown.
// NTP-style: assume the pong was stamped halfway through the round trip, and
// trust the fastest recent round trip most, as it has the least room for
// asymmetric delay.

import type { PingMessage, PongMessage } from "./messages";

const PING_INTERVAL_MS = 2000;
const SAMPLES_KEPT = 8;

interface Sample {
  rttMs: number;
  offsetMs: number; // server wall ms - local wall ms
}

// Local wall clock in ms: performance.now() is monotonic, and timeOrigin ties
// it to the Unix epoch once, so system clock steps cannot jump the result.
export function wallMs(perfNow: number = performance.now()): number {
  return performance.timeOrigin + perfNow;
}

export class ClockSync {
  private samples: Sample[] = [];
  private timer = 0;
  private last: Sample | null = null;

  start(send: (msg: PingMessage) => void): void {
    this.stop();
    const ping = () => send({ type: "ping", t: performance.now() });
    ping();
    this.timer = window.setInterval(ping, PING_INTERVAL_MS);
  }

  // Also forgets every sample: a new connection may reach another server.
  stop(): void {
    window.clearInterval(this.timer);
    this.timer = 0;
    this.samples = [];
    this.last = null;
  }

  onPong(msg: PongMessage, now: number = performance.now()): void {
    const rttMs = now - msg.t;
    // A pong for a ping from before a reload or a reconnect would lie.
    if (!(rttMs >= 0) || rttMs > 60_000) return;
    const sample = { rttMs, offsetMs: msg.server_us / 1000 - wallMs((msg.t + now) / 2) };
    this.last = sample;
    this.samples.push(sample);
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
  }

  private best(): Sample | null {
    let best: Sample | null = null;
    for (const s of this.samples) if (!best || s.rttMs < best.rttMs) best = s;
    return best;
  }

  // null until the first pong.
  get offsetMs(): number | null {
    return this.best()?.offsetMs ?? null;
  }

  get bestRttMs(): number | null {
    return this.best()?.rttMs ?? null;
  }

  get lastRttMs(): number | null {
    return this.last?.rttMs ?? null;
  }

  // Milliseconds from `captureUs` (server clock) to local `perfNow`; null while
  // the clocks are not yet related.
  latencyMs(captureUs: number, perfNow: number): number | null {
    const offset = this.offsetMs;
    if (offset === null) return null;
    return wallMs(perfNow) + offset - captureUs / 1000;
  }
}
