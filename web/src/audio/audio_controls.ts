// The sound controls in the corner: mute, volume, and the microphone
// switch when the server takes one. Hidden until there is something to
// control. Plain DOM; the main thread.

import type { AudioPlayer } from "./audio_player";
import type { MicrophoneSender } from "./microphone_sender";

export class AudioControls {
  private readonly bar: HTMLDivElement;
  private readonly mute: HTMLButtonElement;
  private readonly volume: HTMLInputElement;
  private readonly mic: HTMLButtonElement;

  constructor(
    parent: HTMLElement,
    private readonly player: AudioPlayer,
    private readonly microphone: MicrophoneSender,
  ) {
    this.bar = parent.appendChild(document.createElement("div"));
    this.bar.id = "audio-controls";
    this.bar.hidden = true;
    this.mute = this.bar.appendChild(document.createElement("button"));
    this.mute.id = "audio-mute";
    this.mute.hidden = true;
    this.mute.addEventListener("click", () => {
      player.setMuted(!player.isMuted());
      this.render();
    });
    this.volume = this.bar.appendChild(document.createElement("input"));
    this.volume.id = "audio-volume";
    this.volume.type = "range";
    this.volume.min = "0";
    this.volume.max = "1";
    this.volume.step = "0.05";
    this.volume.value = "1";
    this.volume.title = "Volume";
    this.volume.hidden = true;
    this.volume.addEventListener("input", () => player.setVolume(Number(this.volume.value)));
    this.mic = this.bar.appendChild(document.createElement("button"));
    this.mic.id = "audio-microphone";
    this.mic.hidden = true;
    this.mic.addEventListener("click", () => void this.toggleMicrophone());
    this.render();
  }

  showSound(): void {
    this.bar.hidden = false;
    this.mute.hidden = false;
    this.volume.hidden = false;
  }

  // The server says whether it takes this viewer's microphone.
  allowMicrophone(allowed: boolean): void {
    this.mic.hidden = !allowed;
    if (allowed) this.bar.hidden = false;
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
    this.mute.textContent = this.player.isMuted() ? "Unmute" : "Mute";
    this.mic.textContent = this.microphone.active ? "Microphone on" : "Microphone off";
    this.mic.setAttribute("aria-pressed", String(this.microphone.active));
  }
}
