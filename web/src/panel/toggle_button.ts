// The panel's toggle: a button in the window's top right corner, 2.75rem
// and translucent until hovered or focused. Where the letterboxed picture
// leaves that corner free it sits outside the picture; where the picture
// reaches it (the window full of desktop, dynamic resolution) it becomes a
// thin 3rem x 0.5rem handle at the middle of the top edge instead (clear of
// the corners, where windows keep their close buttons), which grows when
// hovered or focused.

import { icon } from "./icons";
import { el } from "./dom";

// The corner's box in rem: 0.5rem from the edges, 2.75rem square.
const MARGIN_REM = 0.5;
const SIZE_REM = 2.75;

export class ToggleButton {
  readonly element: HTMLButtonElement;

  constructor(parent: HTMLElement, onClick: () => void) {
    this.element = parent.appendChild(el("button", { id: "panel-toggle" }));
    this.element.type = "button";
    this.element.title = "Controls (Ctrl+Alt+Shift+M)";
    this.element.setAttribute("aria-label", "Open the control panel");
    this.element.setAttribute("aria-expanded", "false");
    this.element.setAttribute("aria-controls", "panel");
    this.element.appendChild(icon("menu"));
    this.element.addEventListener("click", onClick);
  }

  setOpen(open: boolean): void {
    this.element.hidden = open;
    this.element.setAttribute("aria-expanded", String(open));
  }

  // The picture's box (CSS pixels, relative to the window) moved: compact
  // when the full-size toggle would cover it.
  place(picture: DOMRect | null): void {
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const reach = (MARGIN_REM + SIZE_REM) * rem;
    const w = document.documentElement.clientWidth;
    const covers = picture !== null && picture.width > 0 && picture.top < reach && picture.right > w - reach;
    this.element.classList.toggle("compact", covers);
  }
}
