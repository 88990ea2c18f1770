// A small line in the bottom left corner for what the page wants the viewer
// to know without getting in the way: shown for a few seconds whenever it
// says something new, then faded out. The last text stays readable in the
// element's title and through the test hook.
//
// Main thread.

const SHOWN_MS = 6000;

export class StatusLine {
  private readonly el: HTMLDivElement;
  private timer = 0;
  private current = "";

  constructor(parent: HTMLElement) {
    this.el = document.createElement("div");
    this.el.id = "status-line";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    Object.assign(this.el.style, {
      position: "fixed", left: "8px", bottom: "8px", maxWidth: "min(40em, 70vw)", padding: "3px 8px",
      borderRadius: "4px", background: "rgba(0,0,0,0.6)", color: "#ddd", font: "12px/1.4 system-ui, sans-serif",
      pointerEvents: "none", opacity: "0.8", transition: "opacity 0.6s", zIndex: "5",
    });
    parent.appendChild(this.el);
  }

  get text(): string {
    return this.current;
  }

  // Shows `text` for a while; the same text again is not shown again.
  say(text: string): void {
    if (text === this.current) return;
    this.current = text;
    this.el.textContent = text;
    this.el.title = text;
    if (!text) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.el.style.opacity = "0.8";
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.el.style.opacity = "0";
    }, SHOWN_MS);
  }
}
