// The AudioWorklet side of desktop sound: a jitter buffer between decoded
// packets (posted by AudioPlayer) and the sound card. Bundled on its own
// (cmake/WebClient.cmake) and served as /audio-worklet.js, because a
// worklet module runs in its own global scope.
//
// The buffer's target level follows the arrival jitter: the spread between
// the fullest and emptiest level over the last second, plus a margin,
// between MIN_TARGET_MS and MAX_TARGET_MS. It starts playing once the
// target is buffered, re-buffers after an underrun, and drops the oldest
// samples when it holds well above the target for a while, so late sound
// never piles up.

import { JITTER_PROCESSOR, JitterBuffer, type JitterStats } from "./jitter_buffer";

// The AudioWorkletGlobalScope, which TypeScript's DOM library leaves out.
declare const sampleRate: number;
declare function registerProcessor(name: string, ctor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

const REPORT_EVERY = 25; // render quanta (about 67 ms at 48 kHz)

class JitterProcessor extends AudioWorkletProcessor {
  private readonly buffer = new JitterBuffer(sampleRate);
  private quanta = 0;

  constructor() {
    super();
    this.port.onmessage = (e: MessageEvent<{ channels: Float32Array[]; captureUs: number }>) => {
      this.buffer.push(e.data.channels, e.data.captureUs);
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const out = outputs[0];
    if (out && out.length > 0) this.buffer.pull(out);
    if (++this.quanta % REPORT_EVERY === 0) {
      const s: JitterStats = this.buffer.stats();
      this.port.postMessage(s);
    }
    return true;
  }
}

registerProcessor(JITTER_PROCESSOR, JitterProcessor);
