// Times as the sessions page shows them: the player's clock (m:ss), a
// session's length in words, and when it started in the browser's local
// time. Pure.

import { humanDuration } from "../files/human_units";

// 0:00, 1:05, 59:59, 1:00:00: whole seconds, rounded down, so the clock
// never runs ahead of the picture.
export function clockText(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// "current / total", the player's time line.
export function clockPair(ms: number, totalMs: number): string {
  return `${clockText(ms)} / ${clockText(totalMs)}`;
}

// A session's length: 45 s, 2 min 5 s, 1 h 3 min. Under a second is "0 s"
// only when nothing was recorded at all.
export function lengthText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  return humanDuration(ms / 1000);
}

// 2026-12-05 10:15 in the browser's time zone; with the seconds when
// `seconds` is set.
export function localTimeText(unixMs: number, seconds = false): string {
  if (!Number.isFinite(unixMs) || unixMs <= 0) return "–";
  const d = new Date(unixMs);
  const two = (n: number) => String(n).padStart(2, "0");
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  const time = `${two(d.getHours())}:${two(d.getMinutes())}${seconds ? `:${two(d.getSeconds())}` : ""}`;
  return `${date} ${time}`;
}
