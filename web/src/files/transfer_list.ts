// The Files panel's list of uploads: per file its path, a progress bar, the
// bytes, rate and time left, a Cancel button while it waits or goes, and in
// the end where it was saved or why it failed; above them the totals over
// all files. Drawn from the queue's state at most once a frame, and once a
// second while something is sent (so a stalled rate shows). Main thread.

import { button, el } from "../panel/dom";
import { humanBytes, humanDuration, humanRate, percentOf } from "./human_units";
import { savedAsNote } from "./transfer_errors";
import type { TransferItem, UploadQueue } from "./upload_queue";

interface Row {
  li: HTMLLIElement;
  state: HTMLSpanElement;
  bar: HTMLProgressElement;
  figures: HTMLSpanElement;
  message: HTMLParagraphElement;
  cancel: HTMLButtonElement;
}

const STATE_WORDS: Record<TransferItem["state"], string> = {
  queued: "waiting",
  sending: "sending",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
};

export class TransferList {
  readonly element: HTMLDivElement;
  private readonly overall: HTMLDivElement;
  private readonly overallBar: HTMLProgressElement;
  private readonly overallText: HTMLSpanElement;
  private readonly list: HTMLUListElement;
  private readonly actions: HTMLDivElement;
  private readonly rows = new Map<number, Row>();
  private frame = 0;
  private ticker = 0;

  constructor(private readonly queue: UploadQueue) {
    this.element = el("div", { id: "files-transfers-box" });
    this.overall = this.element.appendChild(el("div", { id: "files-overall" }));
    this.overallBar = this.overall.appendChild(el("progress", { id: "files-overall-bar" }));
    this.overallBar.max = 100;
    this.overallBar.setAttribute("aria-label", "all uploads");
    this.overallText = this.overall.appendChild(el("span", { id: "files-overall-text", className: "figures-line" }));
    this.list = this.element.appendChild(el("ul", { id: "files-transfers" }));
    this.list.setAttribute("aria-label", "Uploads");
    this.actions = this.element.appendChild(el("div", { className: "row" }));
    this.actions.append(
      button("files-cancel-all", "Cancel all", () => queue.cancelAll()),
      button("files-clear", "Clear finished", () => queue.clearFinished()),
    );
    this.render();
  }

  // Draws again before the next frame.
  update(): void {
    if (this.frame) return;
    this.frame = window.requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const items = this.queue.items;
    const t = this.queue.totals();
    this.element.hidden = items.length === 0;
    this.overall.hidden = items.length === 0;
    this.overallBar.value = t.percent;
    const done = items.filter((i) => i.state === "done").length;
    const counted = items.filter((i) => i.state !== "failed" && i.state !== "cancelled").length;
    const parts = [`${done} of ${counted} files`, `${humanBytes(t.sent)} of ${humanBytes(t.total)}`, `${t.percent}%`];
    if (t.waiting > 0) parts.push(humanRate(t.rate), `${humanDuration(t.secondsLeft)} left`);
    this.overallText.textContent = parts.join(" · ");
    this.overall.dataset.percent = String(t.percent);

    const seen = new Set<number>();
    let previous: HTMLLIElement | null = null;
    for (const item of items) {
      seen.add(item.key);
      let row = this.rows.get(item.key);
      if (!row) {
        row = this.makeRow(item);
        this.rows.set(item.key, row);
      }
      // Keep the list in the queue's order.
      const want: ChildNode | null = previous ? previous.nextSibling : this.list.firstChild;
      if (want !== row.li) this.list.insertBefore(row.li, want);
      this.fill(row, item);
      previous = row.li;
    }
    for (const [key, row] of this.rows) {
      if (!seen.has(key)) {
        row.li.remove();
        this.rows.delete(key);
      }
    }
    const active = t.waiting > 0;
    (this.actions.querySelector("#files-cancel-all") as HTMLButtonElement).disabled = !active;
    (this.actions.querySelector("#files-clear") as HTMLButtonElement).disabled = done + (items.length - counted) === 0;
    // While something is sent the rate and time left move on their own.
    if (active && !this.ticker) this.ticker = window.setInterval(() => this.update(), 1000);
    if (!active && this.ticker) {
      window.clearInterval(this.ticker);
      this.ticker = 0;
    }
  }

  private makeRow(item: TransferItem): Row {
    const li = el("li", { className: "transfer" });
    li.dataset.path = item.path;
    const head = li.appendChild(el("div", { className: "transfer-head" }));
    head.appendChild(el("span", { className: "transfer-name", text: item.path }));
    const state = head.appendChild(el("span", { className: "transfer-state" }));
    const cancel = head.appendChild(button("", "Cancel", () => this.queue.cancel(item.key)));
    cancel.className = "transfer-cancel";
    cancel.setAttribute("aria-label", `Cancel the upload of ${item.path}`);
    const bar = li.appendChild(el("progress"));
    bar.max = 100;
    bar.setAttribute("aria-label", `upload of ${item.path}`);
    const figures = li.appendChild(el("span", { className: "figures-line" }));
    const message = li.appendChild(el("p", { className: "transfer-message note" }));
    message.setAttribute("role", "status");
    return { li, state, bar, figures, message, cancel };
  }

  private fill(row: Row, item: TransferItem): void {
    row.li.dataset.state = item.state;
    row.state.textContent = STATE_WORDS[item.state];
    const pct = item.state === "done" ? 100 : percentOf(item.sent, item.size);
    row.bar.value = pct;
    row.li.dataset.percent = String(pct);
    row.bar.hidden = item.state === "failed" || item.state === "cancelled";
    row.cancel.hidden = item.state !== "queued" && item.state !== "sending";
    let figures: string;
    if (item.state === "sending") {
      figures = [
        `${humanBytes(item.sent)} of ${humanBytes(item.size)}`,
        humanRate(this.queue.rateOf(item)),
        `${humanDuration(this.queue.secondsLeftOf(item))} left`,
      ].join(" · ");
    } else if (item.state === "done" && item.savedAs !== null) {
      figures = `${humanBytes(item.size)} · ${savedAsNote(item.savedAs, item.renamed)}`;
    } else {
      figures = humanBytes(item.size);
    }
    row.figures.textContent = figures;
    row.message.textContent = item.message ?? "";
    row.message.classList.toggle("error", item.state === "failed");
  }
}
