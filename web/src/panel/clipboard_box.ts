// The panel's Clipboard section: a text box that shows what the desktop
// copied last and sends what the viewer types or pastes there to the
// desktop's clipboard. It works wherever the browser refuses the page its
// clipboard (Firefox, no permission); copy and paste inside it stay the
// page's own (data-local-input, see clipboard.ts). While another viewer
// holds control the server drops clipboard text from this one, so Send is
// off and the box says why.

import type { ClipboardBridge } from "../input/clipboard";
import type { ClipboardMode } from "../protocol/messages";
import { button, el, section } from "./dom";

const OTHER_HOLDS = "Another viewer has control: the desktop takes no text from you until you have it.";

export class ClipboardBox {
  readonly element: HTMLElement;
  private readonly text: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly note: HTMLParagraphElement;
  private canSend = false;
  private otherHolds = false;

  constructor(private readonly clipboard: ClipboardBridge) {
    this.element = section("panel-clipboard-section", "Clipboard", "clipboard");
    this.text = this.element.appendChild(el("textarea", { id: "panel-clipboard" }));
    this.text.rows = 3;
    this.text.spellcheck = false;
    this.text.setAttribute("aria-label", "clipboard text");
    this.text.placeholder = "What the desktop copies shows here; type or paste text to send it";
    const row = this.element.appendChild(el("div", { className: "row" }));
    this.send = row.appendChild(button("panel-clipboard-send", "Send to desktop", () => this.sendText(), "send"));
    this.note = this.element.appendChild(el("p", { id: "panel-clipboard-note", className: "note" }));
    this.note.setAttribute("role", "status");
    clipboard.onDesktopText((t) => {
      // What the viewer is typing is not replaced under their hands.
      if (document.activeElement !== this.text) this.text.value = t;
      this.note.textContent = "The desktop copied this.";
    });
    this.setMode("off");
  }

  setMode(mode: ClipboardMode): void {
    const canSend = mode === "both" || mode === "in";
    const canReceive = mode === "both" || mode === "out";
    this.canSend = canSend;
    this.text.readOnly = !canSend;
    if (!canSend && !canReceive) this.note.textContent = "This server shares no clipboard with this viewer.";
    else if (!canSend) this.note.textContent = "The desktop's copies show here; this server takes no text from this viewer.";
    else if (this.note.textContent?.startsWith("This server")) this.note.textContent = "";
    this.refreshSend();
  }

  // The last "viewers" message: whether another viewer holds control.
  setOtherHolds(other: boolean): void {
    if (other === this.otherHolds) return;
    this.otherHolds = other;
    if (!other && this.note.textContent === OTHER_HOLDS) this.note.textContent = "";
    this.refreshSend();
  }

  private refreshSend(): void {
    this.send.disabled = !this.canSend || this.otherHolds;
    if (this.canSend && this.otherHolds) this.note.textContent = OTHER_HOLDS;
  }

  private sendText(): void {
    const ok = this.clipboard.sendText(this.text.value);
    this.note.textContent = ok ? "Sent to the desktop's clipboard." : this.text.value === "" ? "Nothing to send." : "Not sent.";
  }
}
