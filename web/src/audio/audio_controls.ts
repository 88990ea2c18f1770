// The sound controls: mute, volume, and the microphone switch when the
// server takes one. The element is the panel's Sound section
// (panel/panel.ts places it); hidden until there is something to control.
// Plain DOM; the main thread.

import { icon } from "../panel/icons";
import type { AudioPlayer } from "./audio_player";
import type { MicrophoneSender } from "./microphone_sender";

export class AudioControls {
  readonly element: HTMLDivElement;
  private readonly mute: HTMLButtonElement;
  private readonly volume: HTMLInputElement;
  private readonly volumeLabel: HTMLLabelElement;
  private readonly mic: HTMLButtonElement;

  constructor(
    private readonly player: AudioPlayer,
    private readonly microphone: MicrophoneSender,
  ) {
    this.element = document.createElement("div");
    this.element.id = "audio-controls";
    this.element.className = "row";
    this.element.hidden = true;
    this.mute = this.element.appendChild(document.createElement("button"));
    this.mute.id = "audio-mute";
    this.mute.type = "button";
    this.mute.hidden = true;
    this.mute.addEventListener("click", () => {
      player.setMuted(!player.isMuted());
      this.render();
    });
    this.volumeLabel = this.element.appendChild(document.createElement("label"));
    this.volumeLabel.className = "inline";
    this.volumeLabel.hidden = true;
    this.volumeLabel.append("Volume ");
    this.volume = this.volumeLabel.appendChild(document.createElement("input"));
    this.volume.id = "audio-volume";
    this.volume.type = "range";
    this.volume.min = "0";
    this.volume.max = "1";
    this.volume.step = "0.05";
    this.volume.value = "1";
    this.volume.addEventListener("input", () => player.setVolume(Number(this.volume.value)));
    this.mic = this.element.appendChild(document.createElement("button"));
    this.mic.id = "audio-microphone";
    this.mic.type = "button";
    this.mic.hidden = true;
    this.mic.addEventListener("click", () => void this.toggleMicrophone());
    this.render();
  }

  showSound(): void {
    this.element.hidden = false;
    this.mute.hidden = false;
    this.volumeLabel.hidden = false;
  }

  // The server says whether it takes this viewer's microphone.
  allowMicrophone(allowed: boolean): void {
    this.mic.hidden = !allowed;
    if (allowed) this.element.hidden = false;
    if (!allowed && this.microphone.active) this.microphone.stop();
    this.render();
  }

  private async toggleMicrophone(): Promise<void> {
    if (this.microphone.active) {
      this.microphone.stop();
    } else {
      try {
        await this.microphone.start();
      } catch (e) {
        console.warn(`voxl: microphone: ${String(e)}`);
        this.mic.title = String(e);
      }
    }
    this.render();
  }

  private render(): void {
    const muted = this.player.isMuted();
    this.mute.replaceChildren(icon(muted ? "muted" : "speaker"), muted ? "Unmute" : "Mute");
    this.mute.setAttribute("aria-pressed", String(muted));
    this.mic.replaceChildren(icon("microphone"), this.microphone.active ? "Microphone on" : "Microphone off");
    this.mic.setAttribute("aria-pressed", String(this.microphone.active));
  }
}
