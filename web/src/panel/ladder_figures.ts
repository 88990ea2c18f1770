// The encoding ladder (the server's --max-encodes) as the stats overlay
// shows it, from the server's stats message: how many encodes run and the
// machine affords, which rung this viewer takes (and the one it is moving
// to), and each coded rung's consumers, bitrate ceiling and frame rate.
// Pure: the message is free-form JSON, and anything missing or of the wrong
// type shows as "-" or is left out.

type Json = Readonly<Record<string, unknown>>;

function obj(v: unknown): Json | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

function num(o: Json | null, k: string): number | null {
  const v = o?.[k];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function show(v: number | null): string {
  return v === null ? "-" : String(Math.round(v));
}

// Lines for the overlay, or none when the message has no ladder.
export function describeLadder(server: Json | null): string[] {
  const ladder = obj(server?.["ladder"]);
  if (!ladder) return [];
  const viewer = obj(server?.["viewer"]);
  const max = num(ladder, "max_encodes");
  const affordable = num(ladder, "affordable");
  const rung = num(viewer, "rung");
  const moving = num(viewer, "moving_to");
  const you = rung === null ? "-" : moving !== null && moving >= 0 ? `${rung} → ${moving}` : String(rung);
  const lines = [
    `ladder   ${show(affordable)} of ${show(max)} encodes  work ${show(num(ladder, "work_pct"))}%  ` +
      `you: rung ${you}  moves ${show(num(ladder, "moves"))}`,
  ];
  const rungs = Array.isArray(ladder["rungs"]) ? ladder["rungs"] : [];
  for (const r of rungs) {
    const o = obj(r);
    if (!o) continue;
    const n = num(o, "consumers");
    lines.push(
      `  rung ${show(num(o, "rung"))}  ${show(n)} ${n === 1 ? "viewer" : "viewers"}  ` +
        `${show(num(o, "target_kbps"))} kbit/s ceiling  ${show(num(o, "kbps"))} kbit/s  ${show(num(o, "fps"))} fps`,
    );
  }
  return lines;
}
