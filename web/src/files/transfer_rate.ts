// The rate of a transfer and the time it has left, from how many bytes had
// gone at which moments over the last few seconds. Time comes from the
// caller (milliseconds), so it is tested without a clock. Pure.

const WINDOW_MS = 5000;
// Less than this since the first sample is too short to say anything.
const MIN_SPAN_MS = 250;

interface Sample {
  t: number;
  bytes: number;
}

export class RateMeter {
  private samples: Sample[] = [];

  constructor(private readonly windowMs = WINDOW_MS) {}

  // `bytes` is the running total sent so far, at time `now`.
  add(now: number, bytes: number): void {
    const last = this.samples[this.samples.length - 1];
    // A total that goes back (a resume from an earlier offset) starts over.
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ t: now, bytes });
    // Keep one sample at or before the window's start as its base.
    while (this.samples.length > 2 && this.samples[1]!.t <= now - this.windowMs) this.samples.shift();
  }

  // Bytes per second over the window up to `now`, or null before enough has
  // been seen. It falls while nothing arrives, as a stall should show.
  rate(now: number): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last) return null;
    const span = now - first.t;
    if (span < MIN_SPAN_MS) return null;
    return ((last.bytes - first.bytes) * 1000) / span;
  }

  // Seconds until `remaining` more bytes have gone at the present rate; null
  // without a rate, 0 when nothing remains.
  secondsLeft(now: number, remaining: number): number | null {
    if (remaining <= 0) return 0;
    const r = this.rate(now);
    if (r === null || r <= 0) return null;
    return remaining / r;
  }

  reset(): void {
    this.samples = [];
  }
}
