// The bar under the video that spans the whole session: the segments as
// spans (gaps between them stay empty), how far playback is, and each
// event as a marker. A click seeks there, a marker to its event; with the
// keyboard it is a slider (arrows: 5 s, Page Up/Down: 1 min, Home/End).

import type { SessionEvent, Segment } from "./session_data";
import { fractionOf, segmentSpans, timeAtFraction } from "./timeline";
import { clockText } from "./time_text";

const STEP_MS = 5000;
const PAGE_MS = 60000;

export class TimelineBar {
  private lengthMs = 0;
  private nowMs = 0;
  private readonly spans: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly markers: HTMLElement;

  constructor(
    private readonly root: HTMLElement,
    private readonly onSeek: (tMs: number) => void,
  ) {
    this.spans = part("timeline-spans");
    this.progress = part("timeline-progress");
    this.markers = part("timeline-markers");
    root.replaceChildren(this.spans, this.progress, this.markers);
    root.tabIndex = 0;
    root.setAttribute("role", "slider");
    root.setAttribute("aria-label", "Session time");
    root.setAttribute("aria-valuemin", "0");
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
  }

  show(segments: readonly Segment[], events: readonly SessionEvent[], lengthMs: number, textOf: (e: SessionEvent) => string): void {
    this.lengthMs = lengthMs;
    this.root.setAttribute("aria-valuemax", String(Math.round(lengthMs / 1000)));
    this.spans.replaceChildren(
      ...segmentSpans(segments, lengthMs).map(([from, to]) => {
        const span = document.createElement("div");
        span.className = "span";
        span.style.left = percent(from);
        span.style.width = percent(to - from);
        return span;
      }),
    );
    this.markers.replaceChildren(...events.map((e) => this.marker(e, textOf(e))));
    this.setTime(0);
  }

  setTime(ms: number): void {
    this.nowMs = ms;
    this.progress.style.width = percent(fractionOf(ms, this.lengthMs));
    this.root.setAttribute("aria-valuenow", String(Math.round(ms / 1000)));
    this.root.setAttribute("aria-valuetext", `${clockText(ms)} of ${clockText(this.lengthMs)}`);
  }

  private marker(e: SessionEvent, text: string): HTMLButtonElement {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "marker";
    b.dataset.tMs = String(e.tMs);
    b.dataset.event = e.event;
    b.tabIndex = -1; // the event list below is the keyboard's way to them
    b.style.left = percent(fractionOf(e.tMs, this.lengthMs));
    b.title = `${clockText(e.tMs)} ${text}`;
    b.setAttribute("aria-label", b.title);
    b.addEventListener("click", (ev) => {
      ev.stopPropagation();
      this.onSeek(e.tMs);
    });
    return b;
  }

  private onClick(e: MouseEvent): void {
    const box = this.root.getBoundingClientRect();
    if (box.width <= 0) return;
    this.onSeek(timeAtFraction((e.clientX - box.left) / box.width, this.lengthMs));
  }

  private onKey(e: KeyboardEvent): void {
    const moves: Record<string, number> = {
      ArrowLeft: this.nowMs - STEP_MS,
      ArrowDown: this.nowMs - STEP_MS,
      ArrowRight: this.nowMs + STEP_MS,
      ArrowUp: this.nowMs + STEP_MS,
      PageDown: this.nowMs - PAGE_MS,
      PageUp: this.nowMs + PAGE_MS,
      Home: 0,
      End: this.lengthMs,
    };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.onSeek(Math.min(this.lengthMs, Math.max(0, to)));
  }
}

function part(className: string): HTMLElement {
  const el = document.createElement("div");
  el.className = className;
  return el;
}

function percent(f: number): string {
  return `${(f * 100).toFixed(3)}%`;
}
