// Drag and drop onto the page: files and folders dropped anywhere (the
// picture, the panels) become uploads, with a hint over the page while they
// are dragged over it. No drop reaches the desktop as input (the keyboard's
// hidden text field takes no dropped text) and none navigates the page
// away: the page cancels every drop but text dropped into one of its own
// text fields. Listens on the window before anything else. Main thread.

import { el } from "../panel/dom";
import { carriesFiles, dropParts, type DropParts } from "./entry_walker";

// What a files drag would do here now.
export type DropMode = "upload" | "refused" | "off";

export interface DropHandlers {
  mode(): DropMode;
  // Words for the hint while dragging, per mode.
  hint(mode: DropMode): string;
  dropped(parts: DropParts): void;
}

// A drag that stops sending events (it left the window unseen) hides the
// hint after this long.
const STALE_MS = 1500;

export class DropZone {
  readonly hint: HTMLDivElement;
  private depth = 0;
  private staleTimer = 0;

  constructor(parent: HTMLElement, private readonly h: DropHandlers) {
    this.hint = parent.appendChild(el("div", { id: "files-drop-hint" }));
    this.hint.hidden = true;
    this.hint.setAttribute("aria-hidden", "true");
    const opts = { capture: true };
    window.addEventListener("dragenter", (e) => this.enter(e), opts);
    window.addEventListener("dragover", (e) => this.over(e), opts);
    window.addEventListener("dragleave", () => this.leave(), opts);
    window.addEventListener("drop", (e) => this.drop(e), opts);
    window.addEventListener("dragend", () => this.hide(), opts);
  }

  private enter(e: DragEvent): void {
    if (carriesFiles(e.dataTransfer)) this.depth++;
    this.over(e);
  }

  private over(e: DragEvent): void {
    const files = carriesFiles(e.dataTransfer);
    if (!files && ownTextField(e.target)) return; // the browser drops text there
    // Taken by the page: nothing of it goes further.
    e.preventDefault();
    e.stopPropagation();
    const mode = files ? this.h.mode() : "off";
    if (e.dataTransfer) e.dataTransfer.dropEffect = mode === "upload" ? "copy" : "none";
    if (files && mode !== "off") this.show(mode);
  }

  private leave(): void {
    if (this.depth > 0 && --this.depth === 0) this.hide();
  }

  private drop(e: DragEvent): void {
    const files = carriesFiles(e.dataTransfer);
    if (!files && ownTextField(e.target)) return;
    e.preventDefault();
    e.stopPropagation();
    this.hide();
    // The entries must be taken now: the browser empties the drop's data
    // once this handler returns.
    if (files && e.dataTransfer && this.h.mode() !== "off") this.h.dropped(dropParts(e.dataTransfer));
  }

  private show(mode: DropMode): void {
    this.hint.textContent = this.h.hint(mode);
    this.hint.classList.toggle("refused", mode !== "upload");
    this.hint.hidden = false;
    window.clearTimeout(this.staleTimer);
    this.staleTimer = window.setTimeout(() => this.hide(), STALE_MS);
  }

  private hide(): void {
    this.depth = 0;
    window.clearTimeout(this.staleTimer);
    this.hint.hidden = true;
  }
}

// One of the page's own text fields (the clipboard box): text dropped there
// stays there. The keyboard's hidden field is not one of them.
function ownTextField(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type === "text"))) return false;
  return t.closest("[data-local-input]") !== null;
}
