// The session's events listed under the timeline, one button each (its
// moment and a line of text); a button seeks to its moment, and the event
// last passed is marked as the current one while the video plays.

import type { SessionEvent } from "./session_data";
import { lastAtOrBefore } from "./timeline";
import { clockText } from "./time_text";

export class EventList {
  private times: number[] = [];
  private buttons: HTMLButtonElement[] = [];
  private current = -1;

  constructor(
    private readonly list: HTMLElement, // an <ol>
    private readonly onSeek: (tMs: number) => void,
  ) {}

  show(events: readonly SessionEvent[], textOf: (e: SessionEvent) => string): void {
    this.times = events.map((e) => e.tMs);
    this.buttons = events.map((e) => this.button(e, textOf(e)));
    this.current = -1;
    this.list.replaceChildren(
      ...this.buttons.map((b) => {
        const li = document.createElement("li");
        li.append(b);
        return li;
      }),
    );
  }

  setTime(ms: number): void {
    const at = lastAtOrBefore(this.times, ms);
    if (at === this.current) return;
    this.buttons[this.current]?.removeAttribute("aria-current");
    this.current = at;
    this.buttons[at]?.setAttribute("aria-current", "true");
  }

  private button(e: SessionEvent, text: string): HTMLButtonElement {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "event";
    b.dataset.tMs = String(e.tMs);
    b.dataset.event = e.event;
    const time = document.createElement("span");
    time.className = "event-time";
    time.textContent = clockText(e.tMs);
    const line = document.createElement("span");
    line.className = "event-text";
    line.textContent = text;
    b.append(time, line);
    b.addEventListener("click", () => this.onSeek(e.tMs));
    return b;
  }
}
