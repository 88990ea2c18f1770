// The stats overlay (?stats in the address, or the panel's switch): the
// stream's figures as text plus the strip chart.

import { describeLadder } from "./ladder_figures";
import { StatsGraph } from "./stats_graph";
import type { StatsSnapshot } from "../stream_stats";

export interface OverlayFigures extends StatsSnapshot {
  // Frames the compositor presented in the last second; null where the
  // page cannot know (a canvas).
  presentedFps: number | null;
  rttMs: number | null;
  codec: string | null;
  server: Readonly<Record<string, unknown>> | null; // the server's latest stats message
}

export class StatsOverlay {
  private readonly el: HTMLDivElement;
  private readonly text: HTMLPreElement;
  private readonly graph = new StatsGraph();

  constructor(parent: HTMLElement) {
    this.el = parent.appendChild(document.createElement("div"));
    this.el.id = "stats";
    this.text = this.el.appendChild(document.createElement("pre"));
    this.el.appendChild(this.graph.canvas);
  }

  remove(): void {
    this.el.remove();
  }

  update(f: OverlayFigures): void {
    const lines = [
      `fps      ${f.fps}${f.presentedFps !== null ? `  presented ${f.presentedFps}` : ""}`,
      `latency  ${ms(f.latencyMs)}  p50 ${ms(f.latencyP50Ms)}`,
      `bitrate  ${Math.round(f.kbps)} kbit/s`,
      `decode   ${ms(f.decodeMs)}  p50 ${ms(f.decodeP50Ms)}`,
      `rtt      ${ms(f.rttMs)}`,
      `dropped  ${f.droppedFrames}  errors ${f.decoderErrors}  key req ${f.keyframeRequests}`,
      `stream   ${f.width ? `${f.width}×${f.height}` : "-"}  ${f.codec ?? ""}`,
    ];
    if (f.server) {
      const link = describeLink(f.server["viewer"]);
      if (link) lines.push(`link     ${link}`);
      lines.push(...describeLadder(f.server));
      lines.push(`server   ${describeServer(f.server)}`);
    }
    this.text.textContent = lines.join("\n");
    this.graph.add(f.latencyP50Ms ?? f.latencyMs, f.fps);
  }
}

function ms(v: number | null): string {
  return v === null ? "-" : `${v.toFixed(1)} ms`;
}

// The server's view of this viewer's link: its estimates and the bitrate
// they set.
function describeLink(v: unknown): string | null {
  if (typeof v !== "object" || v === null) return null;
  const n = (k: string): string => {
    const x = (v as Record<string, unknown>)[k];
    return typeof x === "number" ? String(Math.round(x)) : "-";
  };
  return (
    `rate ${n("delivery_kbps")} kbit/s  target ${n("target_kbps")}  encoder ${n("encoder_kbps")}\n` +
    `         rtt ${n("rtt_ms")} ms (min ${n("min_rtt_ms")})  in flight ${n("in_flight")} ` +
    `(${n("in_flight_bytes")} B)  held back ${n("held_back")}  dropped ${n("dropped_frames")}`
  );
}

// The server's figures are free-form; show the plain ones, a few per line.
function describeServer(s: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(s)) {
    if (k === "type") continue;
    if (typeof v === "number") parts.push(`${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`);
    else if (typeof v === "string" || typeof v === "boolean") parts.push(`${k} ${v}`);
  }
  const rows: string[] = [];
  for (let i = 0; i < parts.length; i += 3) rows.push(parts.slice(i, i + 3).join("  "));
  return rows.join("\n         ");
}
