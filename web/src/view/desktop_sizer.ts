// Dynamic resolution, the page's side: with the server's "resize" message
// enabled and a viewer that may resize (not view-only), asks for a desktop of
// the stage's size (resize_rule.ts) once the stage has been still for the
// debounce time, and again on a new connection and when this page becomes
// the holder; tells the view to show the desktop at its own size, and says
// in the status line who decides the desktop's size.
//
// Main thread.

import type { ClientMessage, ResizeStateMessage } from "../protocol/messages";
import { ResizeDebounce, wantedDesktopSize, type Size } from "./resize_rule";
import type { StatusLine } from "../panel/status_line";
import type { View, ViewLayout } from "./view";

export interface ResizeState {
  enabled: boolean; // the server's last "resize" said so (false before any)
  holder: boolean;
  viewOnly: boolean;
  reason: string | null;
  scale: number | null;
  wanted: Size | null; // what this stage asks for now
  lastSent: Size | null; // on this connection
  sent: number; // requests sent since the page loaded
  pending: boolean; // waiting for the stage to be still
  status: string; // what the status line says
  layout: ViewLayout;
}

export class DesktopSizer {
  private state: ResizeStateMessage | null = null;
  private viewOnly = false;
  private stage: Size = { width: 0, height: 0 };
  private dpr = 1;
  private readonly debounce = new ResizeDebounce();
  private timer = 0;
  private sentCount = 0;
  private saidCannot = false;
  private status = "";

  constructor(
    private readonly view: View,
    private readonly send: (msg: ClientMessage) => boolean,
    private readonly line: StatusLine,
  ) {
    view.watchStage((stage, dpr) => {
      if (stage.width === this.stage.width && stage.height === this.stage.height && dpr === this.dpr) return;
      this.stage = stage;
      this.dpr = dpr;
      this.debounce.stageChanged(performance.now());
      this.pump();
    });
  }

  // A new connection: the server knows nothing this page asked before, and
  // says again whether the desktop follows.
  connectionOpened(): void {
    this.state = null;
    this.debounce.forgetSent();
    this.cancel();
  }

  setViewOnly(viewOnly: boolean): void {
    this.viewOnly = viewOnly;
    this.update();
  }

  onMessage(m: ResizeStateMessage): void {
    const wasHolder = this.state?.enabled === true && this.state.holder;
    this.state = m;
    if (m.enabled && m.holder && !wasHolder) this.debounce.forgetSent();
    this.view.setResizeScale(m.enabled ? m.scale : null);
    this.update();
  }

  snapshot(): ResizeState {
    return {
      enabled: this.state?.enabled === true,
      holder: this.state?.enabled === true && this.state.holder,
      viewOnly: this.viewOnly,
      reason: this.state?.reason || null,
      scale: this.state?.enabled ? this.state.scale : null,
      wanted: this.wanted(),
      lastSent: this.debounce.last,
      sent: this.sentCount,
      pending: this.timer !== 0,
      status: this.status,
      layout: this.view.layoutState(),
    };
  }

  private update(): void {
    this.say();
    this.pump();
  }

  private mayAsk(): boolean {
    return this.state?.enabled === true && !this.viewOnly;
  }

  private wanted(): Size | null {
    const m = this.state;
    if (!m || !m.enabled) return null;
    return wantedDesktopSize(this.stage, this.dpr, m.scale, {
      minWidth: m.min_width,
      minHeight: m.min_height,
      maxWidth: m.max_width,
      maxHeight: m.max_height,
    });
  }

  // Sends what the stage asks for if the time has come, or waits for it.
  private pump(): void {
    this.cancel();
    if (!this.mayAsk()) return;
    const d = this.debounce.decide(performance.now(), this.wanted());
    if (!d) return;
    if ("waitMs" in d) {
      this.timer = window.setTimeout(() => {
        this.timer = 0;
        this.pump();
      }, Math.ceil(d.waitMs));
      return;
    }
    if (this.send({ type: "resize", width: d.send.width, height: d.send.height })) {
      this.debounce.sent(d.send);
      this.sentCount++;
    }
  }

  private cancel(): void {
    window.clearTimeout(this.timer);
    this.timer = 0;
  }

  private say(): void {
    const m = this.state;
    if (!m) return;
    let text: string;
    if (!m.enabled) {
      // Once per page, not at every reconnect.
      if (this.saidCannot) return;
      this.saidCannot = true;
      text = `desktop cannot follow: ${m.reason || "the server cannot resize it"}; the picture is scaled`;
    } else if (this.viewOnly) {
      text = "view-only: the desktop's size is set by others";
    } else if (m.holder) {
      text = "desktop follows this window";
    } else {
      const who = !m.policy || m.policy === "last-input" ? "the last to use input" : `policy ${m.policy}`;
      text = `desktop follows another viewer's window (${who})`;
    }
    this.status = text;
    this.line.say(text);
  }
}
