// The session's one timeline over its segments: which segment holds a
// moment and where in it, the session's length, and positions on the
// timeline bar as fractions. Segments arrive sorted by start (see
// session_data); there may be gaps between them. Pure.

import type { Segment } from "./session_data";

// Where a session moment plays: the segment at `position` in the list, at
// `offsetMs` into its video. `sessionMs` is the moment that actually plays
// there (later than the one asked for when that fell in a gap).
export interface Place {
  position: number;
  offsetMs: number;
  sessionMs: number;
}

// The end of the last segment or the session's own length, whichever is
// later.
export function sessionLength(segments: readonly Segment[], durationMs: number): number {
  let end = Math.max(0, durationMs);
  for (const s of segments) end = Math.max(end, s.startMs + s.durationMs);
  return end;
}

// Where `tMs` plays: in the segment that holds it; in a gap or before the
// first segment, at the start of the next one; past the end, at the end of
// the last. Null without segments.
export function locate(segments: readonly Segment[], tMs: number): Place | null {
  if (segments.length === 0) return null;
  const t = Number.isFinite(tMs) ? Math.max(0, tMs) : 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (t < s.startMs) return { position: i, offsetMs: 0, sessionMs: s.startMs };
    if (t < s.startMs + s.durationMs) return { position: i, offsetMs: t - s.startMs, sessionMs: t };
  }
  const last = segments.length - 1;
  const s = segments[last];
  return { position: last, offsetMs: s.durationMs, sessionMs: s.startMs + s.durationMs };
}

// The session moment of `videoSeconds` into the segment `segment`.
export function sessionTimeOf(segment: Segment, videoSeconds: number): number {
  const offset = Number.isFinite(videoSeconds) ? Math.max(0, videoSeconds) * 1000 : 0;
  return segment.startMs + offset;
}

// How far along the bar `tMs` lies, 0 to 1.
export function fractionOf(tMs: number, lengthMs: number): number {
  if (!(lengthMs > 0) || !Number.isFinite(tMs)) return 0;
  return Math.min(1, Math.max(0, tMs / lengthMs));
}

// The session moment at `fraction` of the bar (clamped to it), whole ms.
export function timeAtFraction(fraction: number, lengthMs: number): number {
  if (!(lengthMs > 0) || !Number.isFinite(fraction)) return 0;
  return Math.round(Math.min(1, Math.max(0, fraction)) * lengthMs);
}

// The spans of the bar the segments cover, as [from, to) fractions, for
// drawing the gaps as gaps.
export function segmentSpans(segments: readonly Segment[], lengthMs: number): Array<[number, number]> {
  return segments.map((s) => [fractionOf(s.startMs, lengthMs), fractionOf(s.startMs + s.durationMs, lengthMs)]);
}

// The position of the last of `times` (sorted, ascending) at or before
// `tMs`, or -1 when all are later.
export function lastAtOrBefore(times: readonly number[], tMs: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= tMs) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
