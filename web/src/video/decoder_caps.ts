// What this browser's WebCodecs decodes beyond the 4:2:0 stream every
// viewer gets, told to the server in a "decoder" message: with
// `avc444` the server may send a still screen in H.264 High 4:4:4
// Predictive (full-resolution chroma, sharp coloured text). The answer is
// asked once per page and reused on every connection.

import type { DecoderMessage } from "../protocol/messages";

// High 4:4:4 Predictive (profile_idc 244), level 4.2: 1080p at 60 Hz.
export const AVC444_CODEC = "avc1.F4002A";

let asked: Promise<boolean> | null = null;

export function decodesAvc444(): Promise<boolean> {
  if (asked) return asked;
  asked = (async () => {
    if (typeof VideoDecoder === "undefined" || typeof VideoDecoder.isConfigSupported !== "function") return false;
    try {
      const r = await VideoDecoder.isConfigSupported({
        codec: AVC444_CODEC,
        codedWidth: 1920,
        codedHeight: 1080,
        optimizeForLatency: true,
      });
      return r.supported === true;
    } catch {
      return false;
    }
  })();
  return asked;
}

// The message for this browser, once known.
export async function decoderMessage(): Promise<DecoderMessage> {
  return { type: "decoder", avc444: await decodesAvc444() };
}
