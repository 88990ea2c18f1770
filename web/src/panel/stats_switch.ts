// The stats overlay on or off at run time (?stats in the address starts it
// on): the overlay, its refresh timer and the server's figures (asked for
// through the host) come and go together.

import { StatsOverlay } from "./stats_overlay";
import type { PanelHost } from "./panel_host";

const STATS_INTERVAL_MS = 250;

export class StatsSwitch {
  private overlay: StatsOverlay | null = null;
  private timer = 0;

  constructor(private readonly host: PanelHost) {}

  get on(): boolean {
    return this.overlay !== null;
  }

  set(on: boolean): void {
    if (on === this.on) return;
    if (on) {
      const overlay = new StatsOverlay(document.body);
      this.overlay = overlay;
      this.timer = window.setInterval(() => overlay.update(this.host.figures()), STATS_INTERVAL_MS);
    } else {
      window.clearInterval(this.timer);
      this.overlay?.remove();
      this.overlay = null;
    }
    this.host.setStatsWanted(on);
  }
}
