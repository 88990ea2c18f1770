// The control panel: a small toggle button at the window's top right corner
// (toggle_button.ts: outside the letterboxed picture, or a thin handle at
// the top edge's middle where the picture fills the window) and the drawer it opens (a side panel
// on wide windows, a bottom sheet on narrow ones), with the sections in
// panel/*.ts. Closed, only the toggle shows.
//
// Keyboard: Ctrl+Alt+Shift+M opens and closes it from the picture (every
// other key goes to the desktop there); Tab moves through it and wraps;
// Escape closes it, and closing gives the keyboard back to the picture. Keys
// typed in the panel stay in the panel. It hides by itself on a press
// outside it, and a few seconds after the pointer leaves it (unless a text
// field in it has the focus). Main thread.

import { icon } from "./icons";
import { ToggleButton } from "./toggle_button";
import {
  REFUSED_CONTROL_REASON,
  type HelloMessage,
  type InteractionMessage,
  type RefusedMessage,
  type SettingsAppliedMessage,
  type ViewersMessage,
} from "../protocol/messages";
import { ClipboardBox } from "./clipboard_box";
import { ConnectionSection } from "./connection_section";
import { el, section, wrapTab } from "./dom";
import { FilesEntry } from "./files_entry";
import { FilesPanel } from "../files/files_panel";
import type { PanelHost } from "./panel_host";
import type { SessionListener } from "./session_events";
import { SettingsSection } from "./settings_section";
import { StatsSwitch } from "./stats_switch";
import { TouchSection } from "./touch_section";
import { ViewSection } from "./view_section";
import { ViewersSection } from "./viewers_section";

const AUTO_HIDE_MS = 4000;
const REFRESH_MS = 500;

// For tests and tools (window.voxl.panel()).
export interface PanelState {
  open: boolean;
  id: number | null; // hello's id: null from servers without per-viewer settings
  files: boolean;
  scaling: string;
  stats: boolean;
  applied: SettingsAppliedMessage | null;
  viewers: ViewersMessage | null;
}

export class Panel implements SessionListener {
  private readonly root: HTMLDivElement;
  private readonly toggle: ToggleButton;
  private readonly drawer: HTMLElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly connection: ConnectionSection;
  private readonly view: ViewSection;
  private readonly stats: StatsSwitch;
  private readonly clipboard: ClipboardBox;
  private readonly settings: SettingsSection;
  private readonly viewers: ViewersSection;
  private readonly touch: TouchSection;
  private readonly files = new FilesEntry();
  private readonly filesPanel: FilesPanel;
  private hideTimer = 0;
  private refreshTimer = 0;
  private id: number | null = null;
  private offersFiles = false;
  private applied: SettingsAppliedMessage | null = null;

  constructor(parent: HTMLElement, private readonly host: PanelHost, statsOn: boolean) {
    this.root = parent.appendChild(el("div", { id: "panel-root" }));
    this.root.dataset.localInput = "";
    this.toggle = new ToggleButton(this.root, () => this.setOpen(true));
    // The Files button opens the Files panel in place of this one.
    this.filesPanel = new FilesPanel(this.root, { focusPicture: () => host.focusPicture() });
    window.addEventListener("voxl-files", () => {
      this.setOpen(false);
      this.filesPanel.open();
    });
    host.onLayout(() => this.toggle.place(host.pictureBox()));

    this.drawer = this.root.appendChild(el("aside", { id: "panel" }));
    this.drawer.setAttribute("role", "dialog");
    this.drawer.setAttribute("aria-label", "voxl controls");
    this.drawer.hidden = true;
    const header = this.drawer.appendChild(el("header"));
    header.appendChild(el("h1", { text: "voxl" }));
    header.appendChild(this.files.element);
    this.closeButton = header.appendChild(el("button", { id: "panel-close" }));
    this.closeButton.type = "button";
    this.closeButton.setAttribute("aria-label", "Close the control panel");
    this.closeButton.title = "Close (Esc)";
    this.closeButton.appendChild(icon("close"));
    this.closeButton.addEventListener("click", () => this.setOpen(false));

    this.stats = new StatsSwitch(host);
    if (statsOn) this.stats.set(true);
    this.connection = new ConnectionSection(host);
    this.viewers = new ViewersSection((m) => host.send(m));
    this.view = new ViewSection(host, this.stats);
    const sound = section("panel-sound", "Sound", "speaker");
    sound.appendChild(host.audioElement);
    this.clipboard = new ClipboardBox(host.clipboard);
    this.settings = new SettingsSection((m) => host.send(m));
    this.touch = new TouchSection(host.touch);
    this.drawer.append(
      this.connection.element,
      this.viewers.element,
      this.view.element,
      this.touch.element,
      sound,
      this.clipboard.element,
      this.settings.element,
    );
    // The Sound section shows once the audio controls have something.
    const showSound = () => (sound.hidden = host.audioElement.hidden);
    new MutationObserver(showSound).observe(host.audioElement, { attributes: true, attributeFilter: ["hidden"] });
    showSound();
    this.listen();
  }

  get isOpen(): boolean {
    return !this.drawer.hidden;
  }

  setOpen(open: boolean): void {
    if (open === this.isOpen) return;
    this.drawer.hidden = !open;
    this.toggle.setOpen(open);
    window.clearTimeout(this.hideTimer);
    window.clearInterval(this.refreshTimer);
    if (open) {
      this.filesPanel.close();
      this.refresh();
      this.refreshTimer = window.setInterval(() => this.refresh(), REFRESH_MS);
      this.closeButton.focus();
    } else if (this.root.contains(document.activeElement) || document.activeElement === document.body) {
      this.host.focusPicture();
    }
  }

  state(): PanelState {
    return {
      open: this.isOpen,
      id: this.id,
      files: this.offersFiles,
      scaling: this.view.scalingMode,
      stats: this.stats.on,
      applied: this.applied,
      viewers: this.viewers.message,
    };
  }

  // SessionListener: what the client hears from the server.
  hello(m: HelloMessage): void {
    this.id = m.id ?? null;
    this.offersFiles = m.files === true;
    this.files.setOffered(this.offersFiles);
    this.filesPanel.setOffered(this.offersFiles);
    this.settings.setSupported(this.id !== null);
  }

  interaction(m: InteractionMessage): void {
    this.clipboard.setMode(m.view_only ? "off" : m.clipboard);
    this.viewers.setViewOnly(m.view_only);
    this.settings.setViewOnly(m.view_only);
  }

  settingsApplied(m: SettingsAppliedMessage): void {
    this.applied = m;
    this.settings.onApplied(m);
  }

  viewersChanged(m: ViewersMessage): void {
    this.viewers.onViewers(m);
    this.clipboard.setOtherHolds(m.holder !== 0 && m.holder !== m.you);
  }

  refused(m: RefusedMessage): void {
    if (m.what === "input" && m.reason === REFUSED_CONTROL_REASON) this.viewers.onInputRefused();
  }

  disconnected(): void {
    this.id = null;
    this.applied = null;
    this.viewers.reset();
    this.clipboard.setOtherHolds(false);
  }

  private refresh(): void {
    this.connection.refresh();
  }

  private listen(): void {
    // The one shortcut the page keeps for itself, before the desktop's keys.
    window.addEventListener(
      "keydown",
      (e) => {
        if (!(e.ctrlKey && e.altKey && e.shiftKey && e.code === "KeyM")) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        if (!e.repeat) this.setOpen(!this.isOpen);
      },
      true,
    );
    this.drawer.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") {
        e.preventDefault();
        this.setOpen(false);
      } else if (e.key === "Tab") {
        wrapTab(this.drawer, e);
      }
    });
    this.drawer.addEventListener("keyup", (e) => e.stopPropagation());
    document.addEventListener(
      "pointerdown",
      (e) => {
        if (this.isOpen && !(e.target instanceof Node && this.root.contains(e.target))) this.setOpen(false);
      },
      true,
    );
    this.drawer.addEventListener("pointerleave", () => {
      window.clearTimeout(this.hideTimer);
      this.hideTimer = window.setTimeout(() => {
        // Not while the viewer types or picks from a list (its popup is outside).
        if (!isField(document.activeElement) || !this.drawer.contains(document.activeElement)) this.setOpen(false);
      }, AUTO_HIDE_MS);
    });
    this.drawer.addEventListener("pointerenter", () => window.clearTimeout(this.hideTimer));
  }
}

function isField(e: Element | null): boolean {
  return e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement || (e instanceof HTMLInputElement && e.type === "text");
}
