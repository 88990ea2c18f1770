// The panel's Connection section: the state, a coloured quality dot (the
// rule is in quality.ts) and the figures the page has: frame rate, latency,
// bitrate and round trip time. Refreshed only while the panel is open.

import { el, section } from "./dom";
import type { PanelHost } from "./panel_host";
import { quality, type Quality } from "./quality";

const STATE_TEXT: Record<string, string> = {
  connecting: "Connecting",
  connected: "Connected",
  streaming: "Streaming",
  reconnecting: "Reconnecting",
  error: "Error",
  unsupported: "Not supported",
};

const QUALITY_TEXT: Record<Quality, string> = {
  good: "good",
  fair: "fair",
  poor: "poor",
  unknown: "not known yet",
};

export class ConnectionSection {
  readonly element: HTMLElement;
  private readonly dot: HTMLSpanElement;
  private readonly stateText: HTMLSpanElement;
  private readonly values = new Map<string, HTMLElement>();

  constructor(private readonly host: PanelHost) {
    this.element = section("panel-connection", "Connection");
    const line = this.element.appendChild(el("p", { className: "state-line" }));
    this.dot = line.appendChild(el("span", { id: "panel-quality", className: "dot unknown" }));
    this.dot.setAttribute("role", "img");
    this.stateText = line.appendChild(el("span", { id: "panel-state" }));
    const dl = this.element.appendChild(el("dl", { className: "figures" }));
    for (const [key, label] of [["fps", "Frame rate"], ["latency", "Latency"], ["bitrate", "Bitrate"], ["rtt", "Round trip"]]) {
      dl.appendChild(el("dt", { text: label }));
      this.values.set(key!, dl.appendChild(el("dd", { id: `panel-${key}`, text: "-" })));
    }
  }

  refresh(): void {
    const state = this.host.state();
    const f = this.host.figures();
    const latency = f.latencyP50Ms ?? f.latencyMs;
    const q = quality(state, latency, f.rttMs);
    this.dot.className = `dot ${q}`;
    this.dot.setAttribute("aria-label", `quality ${QUALITY_TEXT[q]}`);
    this.dot.title = `Quality: ${QUALITY_TEXT[q]}`;
    this.stateText.textContent = `${STATE_TEXT[state] ?? state} · quality ${QUALITY_TEXT[q]}`;
    this.set("fps", `${f.fps} fps`);
    this.set("latency", ms(latency));
    this.set("bitrate", f.kbps >= 1000 ? `${(f.kbps / 1000).toFixed(1)} Mbit/s` : `${Math.round(f.kbps)} kbit/s`);
    this.set("rtt", ms(f.rttMs));
  }

  private set(key: string, text: string): void {
    const e = this.values.get(key);
    if (e && e.textContent !== text) e.textContent = text;
  }
}

function ms(v: number | null): string {
  return v === null ? "-" : `${Math.round(v)} ms`;
}
