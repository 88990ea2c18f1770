// The trackpad mode's pointer, drawn by the page: a touch screen shows no
// cursor, and the desktop's pointer is never part of the video. A small ring
// centred on the pointer's pixel; it takes no touches itself.
//
// Main thread.

const SIZE_PX = 18;

export class TouchMarker {
  private readonly el: HTMLDivElement;

  constructor(parent: HTMLElement) {
    this.el = document.createElement("div");
    this.el.className = "touch-pointer";
    this.el.setAttribute("aria-hidden", "true");
    this.el.hidden = true;
    Object.assign(this.el.style, {
      position: "fixed",
      left: "0",
      top: "0",
      width: `${SIZE_PX}px`,
      height: `${SIZE_PX}px`,
      marginLeft: `${-SIZE_PX / 2}px`,
      marginTop: `${-SIZE_PX / 2}px`,
      borderRadius: "50%",
      border: "2px solid #fff",
      boxShadow: "0 0 0 1px #000, inset 0 0 0 1px #000",
      boxSizing: "border-box",
      pointerEvents: "none",
      zIndex: "5",
    });
    parent.appendChild(this.el);
  }

  // At client point `p` (CSS px).
  show(p: { x: number; y: number }): void {
    this.el.style.transform = `translate(${Math.round(p.x * 10) / 10}px, ${Math.round(p.y * 10) / 10}px)`;
    if (this.el.hidden) this.el.hidden = false;
  }

  hide(): void {
    if (!this.el.hidden) this.el.hidden = true;
  }
}
