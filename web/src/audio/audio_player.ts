// Desktop sound in the page: Opus packets from the server are decoded with
// WebCodecs' AudioDecoder and played through the jitter-buffer worklet.
// Browsers only let a page start sound after a user gesture, so the
// AudioContext is made (or resumed) on the first click or key press;
// packets that arrive before that are decoded and dropped.

import { JITTER_PROCESSOR, WORKLET_URL, type JitterStats } from "./jitter_buffer";
import { PacketSequence } from "./packet_sequence";

export interface AudioFigures {
  configured: boolean;
  running: boolean; // the AudioContext plays
  muted: boolean;
  volume: number;
  packets: number;
  decodedFrames: number; // AudioData objects decoded
  lost: number; // packets missing in sequence gaps
  late: number; // packets older than one already taken (dropped)
  errors: number;
  jitter: JitterStats | null;
  outputLatencyMs: number;
  analyserLevel: number; // RMS of what goes to the speakers now (AnalyserNode)
  // Capture -> leaving the speakers for the sample playing at the last
  // worklet report (clock-synced, output latency included); null before.
  latencyMs: number | null;
  arrivalLatencyMs: number | null; // capture -> packet received, last packet
  decodedLatencyMs: number | null; // capture -> decoded, last frame
  decodeWaitMs: number | null; // packet received -> decoded, last frame
}

// Capture (server wall clock, µs) -> now, in ms; null before clock sync.
export type LatencyClock = (captureUs: number) => number | null;

// The Opus identification header WebCodecs takes as `description`
// (RFC 7845 section 5.1): magic, version 1, channels, pre-skip 0,
// input rate, gain 0, mapping family 0.
function opusHead(channels: number, rate: number): Uint8Array {
  const head = new Uint8Array(19);
  head.set([0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64], 0); // "OpusHead"
  const v = new DataView(head.buffer);
  v.setUint8(8, 1);
  v.setUint8(9, channels);
  v.setUint16(10, 0, true);
  v.setUint32(12, rate, true);
  v.setInt16(16, 0, true);
  v.setUint8(18, 0);
  return head;
}

export class AudioPlayer {
  private context: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;
  private gain: GainNode | null = null;
  private decoder: AudioDecoder | null = null;
  private rate = 48000;
  private channels = 2;
  private readonly sequence = new PacketSequence();
  private muted = false;
  private volume = 1;
  private readonly figures: AudioFigures = {
    configured: false,
    running: false,
    muted: false,
    volume: 1,
    packets: 0,
    decodedFrames: 0,
    lost: 0,
    late: 0,
    errors: 0,
    jitter: null,
    outputLatencyMs: 0,
    analyserLevel: 0,
    latencyMs: null,
    arrivalLatencyMs: null,
    decodedLatencyMs: null,
    decodeWaitMs: null,
  };
  // Packets in the decoder, oldest first. Each Opus packet decodes to one
  // AudioData, in order; Chromium rebases output timestamps on the first
  // chunk's plus the samples decoded, so the capture time travels here.
  private pending: { captureUs: number; arrived: number }[] = [];
  private analyser: AnalyserNode | null = null;
  private readonly samples = new Float32Array(2048);

  constructor(private readonly sinceCapture: LatencyClock) {
    const unlock = (): void => void this.unlock();
    for (const type of ["pointerdown", "keydown", "touchend"]) window.addEventListener(type, unlock, true);
  }

  // {"type":"audio"}: the stream's format. A new connection sends it again.
  configure(rate: number, channels: number): void {
    this.rate = rate;
    this.channels = channels;
    this.sequence.reset();
    this.pending = [];
    this.decoder?.close();
    this.decoder = new AudioDecoder({
      output: (data) => this.play(data),
      error: (e) => {
        this.figures.errors++;
        console.warn(`voxl: audio decoder: ${e.message}`);
        this.decoder = null;
        this.pending = [];
      },
    });
    this.decoder.configure({ codec: "opus", sampleRate: rate, numberOfChannels: channels, description: opusHead(channels, rate) });
    this.figures.configured = true;
    // An AudioContext made without a gesture starts suspended; try anyway
    // (a page that already had one, or a browser that allows it).
    void this.unlock();
  }

  packet(sequence: number, captureUs: number, payload: Uint8Array): void {
    this.figures.packets++;
    this.figures.arrivalLatencyMs = this.sinceCapture(captureUs);
    const verdict = this.sequence.take(sequence);
    this.figures.lost = this.sequence.lost;
    if (verdict === "late") {
      this.figures.late++;
      return;
    }
    if (!this.decoder || this.decoder.state !== "configured") return;
    // The capture time rides along as the chunk's timestamp (µs).
    this.pending.push({ captureUs, arrived: performance.now() });
    this.decoder.decode(new EncodedAudioChunk({ type: "key", timestamp: captureUs, data: payload }));
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.applyGain();
  }

  setVolume(volume: number): void {
    this.volume = Math.max(0, Math.min(1, volume));
    this.applyGain();
  }

  isMuted(): boolean {
    return this.muted;
  }

  stats(): AudioFigures {
    return {
      ...this.figures,
      running: this.context?.state === "running",
      muted: this.muted,
      volume: this.volume,
      outputLatencyMs: this.context ? ((this.context.outputLatency || 0) + this.context.baseLatency) * 1000 : 0,
      analyserLevel: this.analyserLevel(),
    };
  }

  private analyserLevel(): number {
    if (!this.analyser) return 0;
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (const v of this.samples) sum += v * v;
    return Math.sqrt(sum / this.samples.length);
  }

  // Makes the AudioContext on a user gesture (autoplay policy) and resumes it.
  private async unlock(): Promise<void> {
    if (!this.figures.configured) return;
    try {
      if (!this.context) {
        const ctx = new AudioContext({ sampleRate: this.rate, latencyHint: "interactive" });
        this.context = ctx;
        await ctx.audioWorklet.addModule(WORKLET_URL);
        const node = new AudioWorkletNode(ctx, JITTER_PROCESSOR, {
          numberOfInputs: 0,
          outputChannelCount: [this.channels],
        });
        node.port.onmessage = (e: MessageEvent<JitterStats>) => {
          this.figures.jitter = e.data;
          const since = e.data.playingCaptureUs > 0 ? this.sinceCapture(e.data.playingCaptureUs) : null;
          this.figures.latencyMs = since === null ? null : since + this.stats().outputLatencyMs;
        };
        const gain = new GainNode(ctx);
        const analyser = new AnalyserNode(ctx, { fftSize: this.samples.length });
        node.connect(gain).connect(analyser).connect(ctx.destination);
        this.analyser = analyser;
        this.node = node;
        this.gain = gain;
        this.applyGain();
      }
      if (this.context.state !== "running") await this.context.resume();
    } catch (e) {
      this.figures.errors++;
      console.warn(`voxl: cannot start audio: ${String(e)}`);
    }
  }

  private applyGain(): void {
    if (this.gain) this.gain.gain.value = this.muted ? 0 : this.volume;
  }

  private play(data: AudioData): void {
    this.figures.decodedFrames++;
    const source = this.pending.shift();
    const captureUs = source?.captureUs ?? data.timestamp;
    this.figures.decodedLatencyMs = this.sinceCapture(captureUs);
    if (source) this.figures.decodeWaitMs = performance.now() - source.arrived;
    try {
      if (!this.node || this.context?.state !== "running") return;
      const channels: Float32Array[] = [];
      for (let ch = 0; ch < data.numberOfChannels; ++ch) {
        const plane = new Float32Array(data.numberOfFrames);
        data.copyTo(plane, { planeIndex: ch, format: "f32-planar" });
        channels.push(plane);
      }
      this.node.port.postMessage({ channels, captureUs }, channels.map((c) => c.buffer));
    } finally {
      data.close();
    }
  }
}
