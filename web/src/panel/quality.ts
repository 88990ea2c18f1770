// The connection's quality as one word for the panel's coloured dot.
// Pure logic, no DOM.
//
// The rule: the capture -> decoded latency (the median over the last
// second, else the last frame's) and the round trip time decide; the frame
// rate does not, because a still desktop sends few frames on a good link.
//   good: latency <= 100 ms and RTT <= 100 ms
//   poor: latency > 300 ms or RTT > 250 ms, or the connection is down
//   fair: anything between
//   unknown: connecting, or neither figure known yet (before clock sync)

export type Quality = "good" | "fair" | "poor" | "unknown";

export const GOOD_LATENCY_MS = 100;
export const GOOD_RTT_MS = 100;
export const POOR_LATENCY_MS = 300;
export const POOR_RTT_MS = 250;

export function quality(state: string, latencyMs: number | null, rttMs: number | null): Quality {
  if (state === "reconnecting" || state === "error") return "poor";
  if (state !== "connected" && state !== "streaming") return "unknown";
  if (latencyMs === null && rttMs === null) return "unknown";
  if ((latencyMs ?? 0) > POOR_LATENCY_MS || (rttMs ?? 0) > POOR_RTT_MS) return "poor";
  if ((latencyMs ?? 0) <= GOOD_LATENCY_MS && (rttMs ?? 0) <= GOOD_RTT_MS) return "good";
  return "fair";
}
