// Figures about the stream as this page sees it: running totals plus
// one-second windows for rates and medians. Cheap enough to feed every frame.

const WINDOW_MS = 1000;

class RecentValues {
  private times: number[] = [];
  private values: number[] = [];

  // Pruning here too keeps memory bounded when nobody reads the figures.
  push(t: number, v: number): void {
    this.prune(t);
    this.times.push(t);
    this.values.push(v);
  }

  recent(now: number): readonly number[] {
    this.prune(now);
    return this.values;
  }

  private prune(now: number): void {
    let n = 0;
    while (n < this.times.length && this.times[n]! < now - WINDOW_MS) n++;
    if (n > 0) {
      this.times.splice(0, n);
      this.values.splice(0, n);
    }
  }

  clear(): void {
    this.times = [];
    this.values = [];
  }
}

function median(v: readonly number[]): number | null {
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface StatsSnapshot {
  // Pictures decoded in the last second: every frame of an unstriped
  // stream; of a striped one, the frames of distinct captures (the bands
  // one capture changed count once, so N stripes do not make N times the
  // rate).
  fps: number;
  latencyMs: number | null; // capture -> decoded, last frame
  latencyP50Ms: number | null; // over the last second
  kbps: number; // video payload received in the last second
  decodeMs: number | null; // last frame
  decodeP50Ms: number | null;
  framesDecoded: number; // every decoded frame, each band of a striped stream one
  framesDrawn: number; // decoded frames shown (with a video element, a striped stream's composed pictures)
  framesSkipped: number; // decoded frames replaced by a newer one before the display could show them
  lastFrameId: number;
  width: number; // size of the last drawn frame
  height: number;
  droppedFrames: number; // not decoded: no decoder yet, or waiting for a key frame
  decoderErrors: number;
  keyframeRequests: number;
}

export class StreamStats {
  framesDecoded = 0;
  framesDrawn = 0;
  framesSkipped = 0;
  lastFrameId = 0;
  width = 0;
  height = 0;
  droppedFrames = 0;
  decoderErrors = 0;
  keyframeRequests = 0;
  private lastLatency: number | null = null;
  private lastDecode: number | null = null;
  private readonly frames = new RecentValues();
  private readonly latency = new RecentValues();
  private readonly decode = new RecentValues();
  private readonly bytes = new RecentValues();
  // Every latency of the last few minutes, for measurements over a run.
  private readonly latencyLog: number[] = [];
  private static readonly kLatencyLogMax = 20000;

  received(now: number, payloadBytes: number): void {
    this.bytes.push(now, payloadBytes);
  }

  drawn(width: number, height: number): void {
    this.framesDrawn++;
    this.width = width;
    this.height = height;
  }

  // `picture`: whether the frame starts a picture of its own (false for a
  // striped stream's further bands of one capture); only those count
  // towards fps.
  decoded(now: number, frameId: number, decodeMs: number, latencyMs: number | null, picture = true): void {
    this.framesDecoded++;
    this.lastFrameId = frameId;
    this.lastDecode = decodeMs;
    if (picture) this.frames.push(now, 1);
    this.decode.push(now, decodeMs);
    this.lastLatency = latencyMs;
    if (latencyMs !== null) {
      this.latency.push(now, latencyMs);
      if (this.latencyLog.length >= StreamStats.kLatencyLogMax) this.latencyLog.shift();
      this.latencyLog.push(latencyMs);
    }
  }

  latencies(): number[] {
    return this.latencyLog.slice();
  }

  // A new connection starts the windows afresh; totals run for the page's life.
  resetWindows(): void {
    for (const w of [this.frames, this.latency, this.decode, this.bytes]) w.clear();
    this.lastLatency = null;
    this.lastDecode = null;
  }

  snapshot(now: number): StatsSnapshot {
    let bytes = 0;
    for (const b of this.bytes.recent(now)) bytes += b;
    return {
      fps: this.frames.recent(now).length,
      latencyMs: this.lastLatency,
      latencyP50Ms: median(this.latency.recent(now)),
      kbps: (bytes * 8) / 1000,
      decodeMs: this.lastDecode,
      decodeP50Ms: median(this.decode.recent(now)),
      framesDecoded: this.framesDecoded,
      framesDrawn: this.framesDrawn,
      framesSkipped: this.framesSkipped,
      lastFrameId: this.lastFrameId,
      width: this.width,
      height: this.height,
      droppedFrames: this.droppedFrames,
      decoderErrors: this.decoderErrors,
      keyframeRequests: this.keyframeRequests,
    };
  }
}
