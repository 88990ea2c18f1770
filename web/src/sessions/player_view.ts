// One open session: its heading and notes, the download link, the video
// with the page's own controls (play/pause, speed, the clock), the timeline
// bar and the list of events. Keeps <body>'s data attributes current (see
// page_state) as the player loads, seeks and plays.

import { EventList } from "./event_list";
import { eventText } from "./event_text";
import { setPageState, setSeeked, setSegment, setSessionMs, showError } from "./page_state";
import { Player } from "./player";
import type { SessionEvent, SessionInfo } from "./session_data";
import { downloadPath, type SessionsApi, videoPath } from "./sessions_api";
import { sessionLength } from "./timeline";
import { TimelineBar } from "./timeline_bar";
import { clockPair, lengthText, localTimeText } from "./time_text";
import { usersText } from "./user_names";

export interface PlayerViewElements {
  title: HTMLElement;
  meta: HTMLElement;
  notes: HTMLElement; // why it stopped, that it is live
  download: HTMLAnchorElement;
  video: HTMLVideoElement;
  play: HTMLButtonElement;
  speed: HTMLSelectElement;
  clock: HTMLElement;
  timeline: HTMLElement;
  events: HTMLElement;
  eventsNote: HTMLElement;
}

export class PlayerView {
  private info: SessionInfo | null = null;
  private lengthMs = 0;
  private readonly player: Player;
  private readonly bar: TimelineBar;
  private readonly list: EventList;

  constructor(
    private readonly els: PlayerViewElements,
    private readonly api: SessionsApi,
  ) {
    const seek = (tMs: number) => this.player.seek(tMs);
    this.bar = new TimelineBar(els.timeline, seek);
    this.list = new EventList(els.events, seek);
    this.player = new Player(els.video, (seg) => api.href(videoPath(this.info?.id ?? "", seg.index)), {
      loading: (index) => {
        setPageState("loading");
        setSegment(index);
      },
      ready: (index) => {
        setSegment(index);
        setPageState("ready");
      },
      time: (ms) => this.showTime(ms),
      seeked: (ms) => setSeeked(ms),
      playing: (on) => this.showPlaying(on),
      failed: (index, why) => void this.explainFailure(index, why),
    });
    els.play.addEventListener("click", () => this.toggle());
    els.speed.addEventListener("change", () => this.player.setSpeed(Number(els.speed.value)));
    els.video.addEventListener("click", () => this.toggle());
    // Space plays and pauses, unless a control has the keyboard.
    document.addEventListener("keydown", (e) => {
      if (e.key !== " " || !this.info || e.defaultPrevented) return;
      if (e.target !== document.body && e.target !== els.video) return;
      e.preventDefault();
      this.toggle();
    });
  }

  // The session moment on screen.
  get sessionMs(): number {
    return this.player.sessionMs;
  }

  // Shows `info`, paused at `startMs` (the session's start by default).
  show(info: SessionInfo, startMs = 0): void {
    this.info = info;
    this.lengthMs = sessionLength(info.segments, info.durationMs);
    const { els } = this;
    const who = usersText(info.users);
    els.title.textContent = `Session of ${who}`;
    const parts = info.segments.length === 1 ? "1 part" : `${info.segments.length} parts`;
    els.meta.textContent = `${localTimeText(info.startedMs, true)} · ${lengthText(this.lengthMs)} · ${parts}`;
    els.notes.replaceChildren(...this.notes(info));
    els.download.href = this.api.href(downloadPath(info.id));
    els.download.setAttribute("download", `voxl-session-${info.id}.zip`);
    els.eventsNote.textContent = eventsNote(info);

    const textOf = (e: SessionEvent) => eventText(e);
    this.bar.show(info.segments, info.events, this.lengthMs, textOf);
    this.list.show(info.events, textOf);
    setSeeked(null);
    this.showTime(0);
    this.player.setSpeed(Number(els.speed.value) || 1);
    if (info.segments.length === 0) {
      setSegment(null);
      showError("This session has no video to play yet.");
    }
    this.player.open(info.segments);
    if (startMs > 0) this.player.seek(startMs);
  }

  close(): void {
    this.info = null;
    this.player.close();
    setSegment(null);
    setSessionMs(null);
    setSeeked(null);
  }

  private notes(info: SessionInfo): HTMLElement[] {
    const out: HTMLElement[] = [];
    if (info.live) out.push(note("live", "Still recording: refresh for what came since. The part being recorded plays once it is finished."));
    if (info.stopped) out.push(note("stopped", `The recording stopped early: ${info.stopped}`));
    return out;
  }

  private toggle(): void {
    if (this.player.playing) this.player.pause();
    else this.player.play();
  }

  private showTime(ms: number): void {
    setSessionMs(ms);
    this.els.clock.textContent = clockPair(ms, this.lengthMs);
    this.bar.setTime(ms);
    this.list.setTime(ms);
  }

  private showPlaying(on: boolean): void {
    this.els.play.textContent = on ? "Pause" : "Play";
    this.els.play.setAttribute("aria-label", on ? "Pause" : "Play");
  }

  // The browser says little about a video that failed: ask the server.
  private async explainFailure(index: number, browserWhy: string): Promise<void> {
    const id = this.info?.id;
    if (!id) return;
    const problem = await this.api.problemWith(videoPath(id, index));
    if (this.info?.id !== id) return;
    if (problem?.status === 403) showError(problem.message);
    else showError(`Part ${index} of the session could not be played. ${problem?.message ?? browserWhy}`);
  }
}

function note(className: string, text: string): HTMLElement {
  const p = document.createElement("p");
  p.className = `note ${className}`;
  p.textContent = text;
  return p;
}

function eventsNote(info: SessionInfo): string {
  if (info.events.length === 0) return "No events were recorded.";
  const n = info.events.length === 1 ? "1 event" : `${info.events.length} events`;
  return info.eventsTruncated ? `${n}; the server left out the rest.` : n;
}
