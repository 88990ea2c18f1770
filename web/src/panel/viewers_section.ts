// The panel's Viewers section: who is watching (one line each: name, role,
// "you", who has control, who asks for it) from the server's "viewers"
// message, and the handover buttons, sent as "control" messages. Before a
// server lists viewers (older servers never do) it shows what this page
// knows: itself, full or view-only.

import type { ControlRequest, ViewerEntry, ViewersMessage } from "../protocol/messages";
import { button, el, section } from "./dom";

// Who a viewer is: the name they signed in with, else the name they chose,
// else their number.
function shownName(v: ViewerEntry): string {
  return v.user || v.name || `Viewer ${v.id}`;
}

export class ViewersSection {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly note: HTMLParagraphElement;
  private readonly actions: HTMLDivElement;
  private last: ViewersMessage | null = null;
  private viewOnly = false;
  private refused = false;

  constructor(private readonly send: (m: ControlRequest) => boolean) {
    this.element = section("panel-viewers-section", "Viewers", "people");
    this.list = this.element.appendChild(el("ul", { id: "panel-viewers", className: "viewers" }));
    this.actions = this.element.appendChild(el("div", { id: "panel-control", className: "row" }));
    this.note = this.element.appendChild(el("p", { id: "panel-control-note", className: "note" }));
    this.note.setAttribute("role", "status");
    this.render();
  }

  get message(): ViewersMessage | null {
    return this.last;
  }

  setViewOnly(viewOnly: boolean): void {
    this.viewOnly = viewOnly;
    this.render();
  }

  onViewers(m: ViewersMessage): void {
    this.last = m;
    if (m.holder === m.you) this.refused = false;
    this.render();
  }

  // The server dropped this viewer's input: another full viewer holds control.
  onInputRefused(): void {
    this.refused = true;
    this.render();
  }

  // The connection went: the next one starts afresh.
  reset(): void {
    this.last = null;
    this.refused = false;
    this.render();
  }

  private render(): void {
    const m = this.last;
    this.list.replaceChildren();
    this.actions.replaceChildren();
    if (!m) {
      this.list.appendChild(el("li", { text: `You (${this.viewOnly ? "view-only" : "full"})` }));
      this.note.textContent = this.refused ? "Another viewer has control." : "";
      return;
    }
    const me = m.viewers.find((v) => v.id === m.you);
    const holding = m.holder !== 0 && m.holder === m.you;
    for (const v of m.viewers) this.list.appendChild(this.line(v, m, holding));
    if (m.more > 0) this.list.appendChild(el("li", { className: "more", text: `and ${m.more} more` }));
    if (me?.role === "full") {
      if (holding) this.actions.appendChild(button("panel-control-release", "Release control", () => this.control("release")));
      else if (m.holder !== 0) {
        const b = this.actions.appendChild(button("panel-control-request", "Request control", () => this.control("request")));
        b.disabled = me.requesting;
      }
    }
    this.note.textContent = this.describe(m, me, holding);
  }

  private line(v: ViewerEntry, m: ViewersMessage, holding: boolean): HTMLLIElement {
    const li = el("li", { className: "viewer" });
    li.dataset.id = String(v.id);
    const name = shownName(v);
    li.appendChild(el("span", { className: "name", text: v.id === m.you ? `${name} (you)` : name }));
    li.appendChild(el("span", { className: "role", text: v.role }));
    if (v.id === m.holder) li.appendChild(el("span", { className: "badge control", text: "has control" }));
    if (v.requesting) li.appendChild(el("span", { className: "badge asks", text: "asks for control" }));
    if (holding && v.requesting && v.id !== m.you) {
      // Kept together: they wrap to the next line as one.
      const answer = li.appendChild(el("span", { className: "answer" }));
      answer.appendChild(button(`panel-grant-${v.id}`, "Grant", () => this.control("grant", v.id)));
      answer.appendChild(button(`panel-deny-${v.id}`, "Deny", () => this.control("deny", v.id)));
    }
    return li;
  }

  private describe(m: ViewersMessage, me: ViewerEntry | undefined, holding: boolean): string {
    if (me?.role !== "full") return "View-only: this viewer watches.";
    if (holding) return "You have control.";
    if (m.holder === 0) return "Nobody has control: the first to type or click takes it.";
    const holder = m.viewers.find((v) => v.id === m.holder);
    const who = holder && (holder.user || holder.name) ? shownName(holder) : "Another viewer";
    if (me.requesting) {
      const t = m.timeout_s > 0 ? ` (or after ${m.timeout_s} s without input from them)` : "";
      return `${who} has control; you asked for it: it comes when they grant or release it${t}.`;
    }
    return this.refused ? `${who} has control: request it to type or click.` : `${who} has control.`;
  }

  private control(action: ControlRequest["action"], to?: number): void {
    this.send(to === undefined ? { type: "control", action } : { type: "control", action, to });
  }
}
