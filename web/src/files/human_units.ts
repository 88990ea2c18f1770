// Sizes, rates and durations in words a person reads at a glance: binary
// units (KiB, MiB...), one decimal below ten, whole numbers above. Pure.

const UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB"];

// 0 B, 999 B, 1 KiB, 1.5 MiB, 12 MiB, 3.2 GiB. Anything that is not a
// non-negative number shows as a dash.
export function humanBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "–";
  if (n < 1024) return `${Math.round(n)} B`;
  let v = n / 1024;
  let unit = 0;
  while (v >= 1024 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  // 1023.96 KiB rounds to "1024 KiB": show it as the next unit up.
  if (v >= 1023.5 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${oneDecimalBelowTen(v)} ${UNITS[unit]}`;
}

// Bytes per second, or a dash while there is no estimate yet.
export function humanRate(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) return "–";
  return `${humanBytes(bytesPerSecond)}/s`;
}

// 0 s, 45 s, 2 min 5 s, 1 h 3 min, 2 d 4 h; a dash without an estimate.
export function humanDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return "–";
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return pair(Math.floor(s / 60), "min", s % 60, "s");
  if (s < 86400) return pair(Math.floor(s / 3600), "h", Math.floor((s % 3600) / 60), "min");
  return pair(Math.floor(s / 86400), "d", Math.floor((s % 86400) / 3600), "h");
}

// Whole percent of done out of total, 0 to 100; an empty total is complete.
export function percentOf(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}

function oneDecimalBelowTen(v: number): string {
  if (v >= 10) return String(Math.round(v));
  const t = (Math.round(v * 10) / 10).toFixed(1);
  return t.endsWith(".0") ? t.slice(0, -2) : t;
}

function pair(a: number, aUnit: string, b: number, bUnit: string): string {
  return b === 0 ? `${a} ${aUnit}` : `${a} ${aUnit} ${b} ${bUnit}`;
}
