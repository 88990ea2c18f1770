// Plays one session's segments in the one <video>: loads the segment that
// holds a moment, seeks inside it, goes on to the next when one ends (still
// playing, at the same speed), and reports the session moment on screen.
// What it shows goes out through PlayerHooks; it touches no other element.

import type { Segment } from "./session_data";
import { locate, sessionTimeOf } from "./timeline";

export interface PlayerHooks {
  loading(segmentIndex: number): void; // a segment's video is being fetched
  ready(segmentIndex: number): void; // its metadata is known
  time(sessionMs: number): void;
  seeked(requestedMs: number): void; // a seek() finished
  playing(wanted: boolean): void; // for the play/pause button
  failed(segmentIndex: number, why: string): void;
}

export class Player {
  private segments: Segment[] = [];
  private position = -1; // in `segments`; -1: nothing loaded
  private ready = false;
  private offsetOnLoad: number | null = null; // ms into the loading segment
  private pendingSeek: number | null = null; // requested moment, until seeked
  private speed = 1;
  private wanted = false; // playing, or about to once loaded

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly urlOf: (segment: Segment) => string,
    private readonly hooks: PlayerHooks,
  ) {
    video.preload = "auto";
    video.addEventListener("loadedmetadata", () => this.onMetadata());
    video.addEventListener("seeked", () => this.onSeeked());
    video.addEventListener("timeupdate", () => this.report());
    video.addEventListener("ended", () => this.onEnded());
    video.addEventListener("error", () => this.onError());
    video.addEventListener("play", () => this.want(true));
    // The pause that comes with the end of a segment, or while another
    // loads, is not the viewer's wish.
    video.addEventListener("pause", () => {
      if (this.ready && !video.ended) this.want(false);
    });
  }

  // Starts on `segments` (sorted by start), paused at the first moment.
  open(segments: readonly Segment[]): void {
    this.segments = [...segments];
    this.want(false);
    this.pendingSeek = null;
    if (this.segments.length === 0) {
      this.unload();
      return;
    }
    this.load(0, 0);
  }

  close(): void {
    this.segments = [];
    this.pendingSeek = null;
    this.want(false);
    this.unload();
  }

  get playing(): boolean {
    return this.wanted;
  }

  // The session moment on screen.
  get sessionMs(): number {
    const seg = this.segments[this.position];
    if (!seg) return 0;
    if (!this.ready) return seg.startMs + (this.offsetOnLoad ?? 0);
    return sessionTimeOf(seg, this.video.currentTime);
  }

  play(): void {
    if (this.position < 0) return;
    // At the end of the last segment: from the session's start again.
    if (this.ready && this.video.ended && this.position === this.segments.length - 1) {
      this.want(true);
      this.load(0, 0);
      return;
    }
    this.want(true);
    if (this.ready) this.start();
  }

  pause(): void {
    this.want(false);
    this.video.pause();
  }

  // 1, 2, 4 or 8 times as fast; kept for the segments that follow.
  setSpeed(rate: number): void {
    if (!(rate > 0)) return;
    this.speed = rate;
    this.video.defaultPlaybackRate = rate;
    this.video.playbackRate = rate;
  }

  // Shows the session moment `tMs` (in a gap: the next segment's start).
  seek(tMs: number): void {
    const place = locate(this.segments, tMs);
    if (!place) return;
    this.pendingSeek = tMs;
    if (place.position !== this.position) {
      this.load(place.position, place.offsetMs);
    } else if (!this.ready) {
      this.offsetOnLoad = place.offsetMs;
    } else {
      const target = this.clampSeconds(place.offsetMs / 1000);
      if (!this.video.seeking && Math.abs(this.video.currentTime - target) < 0.001) this.finishSeek();
      else this.video.currentTime = target;
    }
    this.hooks.time(place.sessionMs);
  }

  private load(position: number, offsetMs: number): void {
    const seg = this.segments[position];
    this.position = position;
    this.ready = false;
    this.offsetOnLoad = offsetMs;
    this.hooks.loading(seg.index);
    this.video.src = this.urlOf(seg);
    this.hooks.time(seg.startMs + offsetMs);
  }

  private unload(): void {
    this.position = -1;
    this.ready = false;
    this.offsetOnLoad = null;
    this.video.removeAttribute("src");
    this.video.load();
  }

  private onMetadata(): void {
    const seg = this.segments[this.position];
    if (!seg) return;
    this.ready = true;
    this.video.defaultPlaybackRate = this.speed;
    this.video.playbackRate = this.speed;
    const target = this.clampSeconds((this.offsetOnLoad ?? 0) / 1000);
    this.offsetOnLoad = null;
    if (target > 0.0005) this.video.currentTime = target;
    else if (this.pendingSeek !== null) this.finishSeek();
    this.hooks.ready(seg.index);
    this.report();
    if (this.wanted) this.start();
  }

  private onSeeked(): void {
    this.report();
    // A seek asked for while another was under way replaces it: only the
    // last one's seeked finishes the request.
    if (this.pendingSeek !== null && this.ready && !this.video.seeking) this.finishSeek();
  }

  private finishSeek(): void {
    const t = this.pendingSeek;
    this.pendingSeek = null;
    this.report();
    if (t !== null) this.hooks.seeked(t);
  }

  private onEnded(): void {
    if (this.position < 0) return;
    if (this.position + 1 < this.segments.length) {
      this.want(true);
      this.load(this.position + 1, 0);
    } else {
      this.want(false);
      this.report();
    }
  }

  private onError(): void {
    const seg = this.segments[this.position];
    if (!seg || !this.video.getAttribute("src")) return;
    this.want(false);
    this.hooks.failed(seg.index, mediaErrorText(this.video.error));
  }

  private start(): void {
    this.video.play().catch((e: unknown) => {
      // A newer load or pause cut the play short: nothing went wrong.
      if (e instanceof DOMException && e.name === "AbortError") return;
      this.want(false);
      const seg = this.segments[this.position];
      if (seg) this.hooks.failed(seg.index, e instanceof Error ? e.message : String(e));
    });
  }

  private want(on: boolean): void {
    if (this.wanted === on) return;
    this.wanted = on;
    this.hooks.playing(on);
  }

  private report(): void {
    if (this.position >= 0) this.hooks.time(this.sessionMs);
  }

  // `s` within the loaded video, once its length is known.
  private clampSeconds(s: number): number {
    const d = this.video.duration;
    return Number.isFinite(d) && d > 0 ? Math.min(Math.max(0, s), d) : Math.max(0, s);
  }
}

// Why the browser could not play a video, in a sentence.
export function mediaErrorText(error: MediaError | null): string {
  const detail = error?.message ? ` (${error.message})` : "";
  switch (error?.code) {
    case 1:
      return `Its loading was stopped${detail}.`;
    case 2:
      return `The network failed while it loaded${detail}.`;
    case 3:
      return `The browser could not decode it${detail}.`;
    case 4:
      return `The browser could not load it: its format is not supported, or the server refused it${detail}.`;
    default:
      return `The browser could not play it${detail}.`;
  }
}
