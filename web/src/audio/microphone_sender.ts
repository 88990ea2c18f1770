// The viewer's microphone, sent to voxl: asked for only when the user turns
// it on, encoded with WebCodecs' AudioEncoder (Opus, 10 ms frames) and sent
// as kind-3 messages. Reads the track with MediaStreamTrackProcessor
// (Chromium); elsewhere it says the browser cannot.

import { microphoneMessage } from "../protocol/messages";

interface TrackProcessor {
  readable: ReadableStream<AudioData>;
}
declare const MediaStreamTrackProcessor: { new (init: { track: MediaStreamTrack }): TrackProcessor } | undefined;

export class MicrophoneSender {
  private stream: MediaStream | null = null;
  private encoder: AudioEncoder | null = null;
  private reader: ReadableStreamDefaultReader<AudioData> | null = null;
  private sequence = 0;
  private sent = 0;
  private error: string | null = null;

  // `send` returns false when the connection cannot take it (dropped).
  constructor(private readonly send: (message: ArrayBuffer) => boolean) {}

  get active(): boolean {
    return this.stream !== null;
  }

  stats(): { active: boolean; sent: number; error: string | null } {
    return { active: this.active, sent: this.sent, error: this.error };
  }

  async start(): Promise<void> {
    if (this.stream) return;
    if (typeof MediaStreamTrackProcessor === "undefined" || typeof AudioEncoder === "undefined") {
      this.error = "this browser cannot send its microphone (no MediaStreamTrackProcessor or AudioEncoder)";
      throw new Error(this.error);
    }
    this.error = null;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const track = stream.getAudioTracks()[0];
    if (!track) throw new Error("no microphone track");
    this.stream = stream;
    this.reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
    void this.pump(this.reader);
  }

  stop(): void {
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    void this.reader?.cancel().catch(() => undefined);
    this.reader = null;
    if (this.encoder && this.encoder.state !== "closed") this.encoder.close();
    this.encoder = null;
  }

  private async pump(reader: ReadableStreamDefaultReader<AudioData>): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || !value) break;
        try {
          this.encode(value);
        } finally {
          value.close();
        }
      }
    } catch (e) {
      this.error = String(e);
    }
  }

  private encode(data: AudioData): void {
    if (!this.encoder) {
      const encoder = new AudioEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          this.sequence = (this.sequence + 1) >>> 0;
          // The chunk's timestamp is the track's clock; the header wants wall time.
          if (this.send(microphoneMessage(this.sequence, Date.now() * 1000, bytes))) this.sent++;
        },
        error: (e) => {
          this.error = e.message;
          this.encoder = null;
        },
      });
      encoder.configure({
        codec: "opus",
        sampleRate: data.sampleRate,
        numberOfChannels: data.numberOfChannels,
        bitrate: 32000,
        opus: { frameDuration: 10000 },
      } as AudioEncoderConfig);
      this.encoder = encoder;
    }
    this.encoder.encode(data);
  }
}
