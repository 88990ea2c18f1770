// A jitter buffer for planar float PCM, pure logic (no Web Audio), so the
// worklet stays thin and the policy is readable in one place.

export const JITTER_PROCESSOR = "voxl-jitter";
export const WORKLET_URL = "audio-worklet.js"; // beside the page, whatever its path prefix
export const MIN_TARGET_MS = 20;
export const MAX_TARGET_MS = 60;
const MARGIN_MS = 5;
const WINDOW_MS = 1000; // jitter is measured over this much playback
const SHRINK_AFTER_MS = 250; // held above the target this long: drop the excess
const CAP_SLACK_MS = 20; // a burst may briefly exceed the largest target by this much

export interface JitterStats {
  bufferedMs: number;
  targetMs: number;
  underruns: number;
  droppedMs: number; // dropped to shrink the buffer, since the start
  playedFrames: number; // sample frames played (not silence)
  playingCaptureUs: number; // capture time of the sample now playing; 0 before any
  level: number; // RMS of the last rendered quantum
}

interface Chunk {
  channels: Float32Array[];
  captureUs: number;
  offset: number; // frames of this chunk already played
}

export class JitterBuffer {
  private readonly chunks: Chunk[] = [];
  private buffered = 0; // frames
  private target: number;
  private playing = false;
  private underruns = 0;
  private dropped = 0;
  private played = 0;
  private playingCaptureUs = 0;
  private level = 0;
  // Level extremes over the current window.
  private windowFrames = 0;
  private windowMin = Infinity;
  private windowMax = 0;
  private aboveFor = 0; // frames spent above the target + margin

  constructor(private readonly rate: number) {
    this.target = this.ms(MIN_TARGET_MS);
  }

  push(channels: Float32Array[], captureUs: number): void {
    const n = channels[0]?.length ?? 0;
    if (n === 0) return;
    this.chunks.push({ channels, captureUs, offset: 0 });
    this.buffered += n;
    // Never hold much more than the largest target: older sound is useless
    // and would trail the picture.
    const cap = this.ms(MAX_TARGET_MS + CAP_SLACK_MS);
    if (this.buffered > cap) this.drop(this.buffered - cap);
  }

  // Fills `out` (one array per output channel, all the same length).
  pull(out: Float32Array[]): void {
    const frames = out[0]?.length ?? 0;
    if (!this.playing && this.buffered >= this.target) this.playing = true;
    let written = 0;
    if (this.playing) {
      while (written < frames && this.chunks.length > 0) {
        const c = this.chunks[0]!;
        const len = c.channels[0]!.length;
        const take = Math.min(frames - written, len - c.offset);
        for (let ch = 0; ch < out.length; ++ch) {
          const src = c.channels[Math.min(ch, c.channels.length - 1)]!;
          out[ch]!.set(src.subarray(c.offset, c.offset + take), written);
        }
        this.playingCaptureUs = c.captureUs + ((c.offset * 1e6) / this.rate);
        c.offset += take;
        written += take;
        if (c.offset >= len) this.chunks.shift();
      }
      this.buffered -= written;
      this.played += written;
      if (written < frames) {
        // Ran dry: silence, and wait for the target again (grown a little).
        ++this.underruns;
        this.playing = false;
        this.target = Math.min(this.ms(MAX_TARGET_MS), this.target + this.ms(MARGIN_MS));
      }
    }
    for (const ch of out) ch.fill(0, written);
    this.measure(out, frames);
    this.adapt(frames);
  }

  stats(): JitterStats {
    return {
      bufferedMs: (this.buffered * 1000) / this.rate,
      targetMs: (this.target * 1000) / this.rate,
      underruns: this.underruns,
      droppedMs: (this.dropped * 1000) / this.rate,
      playedFrames: this.played,
      playingCaptureUs: this.playingCaptureUs,
      level: this.level,
    };
  }

  private ms(v: number): number {
    return Math.round((v * this.rate) / 1000);
  }

  private measure(out: Float32Array[], frames: number): void {
    let sum = 0;
    const first = out[0];
    if (first) for (let i = 0; i < frames; ++i) sum += first[i]! * first[i]!;
    this.level = frames > 0 ? Math.sqrt(sum / frames) : 0;
  }

  private adapt(frames: number): void {
    this.windowMin = Math.min(this.windowMin, this.buffered);
    this.windowMax = Math.max(this.windowMax, this.buffered);
    this.windowFrames += frames;
    if (this.windowFrames >= this.ms(WINDOW_MS)) {
      // What the level swung by is what arrivals jitter by: keep that much.
      const swing = this.windowMax - this.windowMin;
      const want = swing + this.ms(MARGIN_MS);
      this.target = Math.max(this.ms(MIN_TARGET_MS), Math.min(this.ms(MAX_TARGET_MS), want));
      this.windowFrames = 0;
      this.windowMin = Infinity;
      this.windowMax = 0;
    }
    if (this.playing && this.buffered > this.target + this.ms(MARGIN_MS)) {
      this.aboveFor += frames;
      if (this.aboveFor >= this.ms(SHRINK_AFTER_MS)) {
        this.drop(this.buffered - this.target);
        this.aboveFor = 0;
      }
    } else {
      this.aboveFor = 0;
    }
  }

  // Drops the oldest `frames`.
  private drop(frames: number): void {
    let left = frames;
    while (left > 0 && this.chunks.length > 0) {
      const c = this.chunks[0]!;
      const rest = c.channels[0]!.length - c.offset;
      const take = Math.min(left, rest);
      c.offset += take;
      left -= take;
      if (c.offset >= c.channels[0]!.length) this.chunks.shift();
    }
    const done = frames - left;
    this.buffered -= done;
    this.dropped += done;
  }
}
