// The centred message that says what the connection is doing. It goes away
// once pictures arrive, and comes back when they cannot.

export class StatusOverlay {
  private countdown = 0;
  private readonly title: HTMLElement;
  private readonly detail: HTMLElement;

  constructor(private readonly el: HTMLElement) {
    el.replaceChildren();
    this.title = el.appendChild(document.createElement("div"));
    this.title.className = "title";
    this.detail = el.appendChild(document.createElement("div"));
    this.detail.className = "detail";
  }

  connecting(): void {
    this.show("Connecting…");
  }

  connected(): void {
    this.show("Connected", "waiting for the first picture");
  }

  // `detail`, when given, says more than `reason`: one paragraph each.
  reconnecting(reason: string, retryAt: number, detail?: readonly string[]): void {
    const tick = () => {
      const s = Math.max(0, Math.ceil((retryAt - performance.now()) / 1000));
      this.title.textContent = s > 0 ? `Reconnecting in ${s} s` : "Reconnecting…";
    };
    this.show("", reason);
    if (detail) this.paragraphs([reason, ...detail]);
    tick();
    this.countdown = window.setInterval(tick, 250);
  }

  error(title: string, detail = ""): void {
    this.show(title, detail, true);
  }

  // A message that stays, with one paragraph per entry of `detail`; text
  // between backticks is set as code, so commands do not wrap mid-word.
  blocked(title: string, detail: readonly string[]): void {
    this.show(title, "", true);
    this.paragraphs(detail);
  }

  private paragraphs(detail: readonly string[]): void {
    this.detail.replaceChildren(
      ...detail.map((text) => {
        const p = document.createElement("p");
        text.split("`").forEach((part, i) => {
          if (i % 2 === 0) p.append(part);
          else p.appendChild(document.createElement("code")).textContent = part;
        });
        return p;
      }),
    );
  }

  hide(): void {
    window.clearInterval(this.countdown);
    this.el.hidden = true;
  }

  get visible(): boolean {
    return !this.el.hidden;
  }

  private show(title: string, detail = "", isError = false): void {
    window.clearInterval(this.countdown);
    this.title.textContent = title;
    this.detail.textContent = detail;
    this.el.classList.toggle("error", isError);
    this.el.hidden = false;
  }
}
