// One viewer: routes the connection's messages to the decoder, the clock, the
// picture and the figures, and answers the server as the protocol asks;
// tells the control panel (its SessionListener) what it shows. The
// connection comes from the factory it is given (main.ts: the WebSocket's).

import type { ScreenElement } from "./view/screen_element";
import { AudioControls } from "./audio/audio_controls";
import { AudioPlayer } from "./audio/audio_player";
import { MicrophoneSender } from "./audio/microphone_sender";
import { ClockSync } from "./protocol/clock_sync";
import type { ConnectionFactory, StreamConnection } from "./protocol/connection";
import type { StreamVerdict } from "./protocol/stream_refusal";
import { decoderMessage } from "./video/decoder_caps";
import { DesktopSizer } from "./view/desktop_sizer";
import { Interaction } from "./input/interaction";
import { touchModeFromQuery, type TouchControls } from "./input/touch_controls";
import {
  PROTOCOL_VERSION,
  REFUSED_CONTROL_REASON,
  parseServerMessage,
  readAudioHeader,
  readVideoHeader,
  videoConfig,
  type ClientMessage,
  type ControlRequest,
  type SettingsRequest,
  type StatsMessage,
} from "./protocol/messages";
import type { SessionListener } from "./panel/session_events";
import type { StatusOverlay } from "./panel/status_overlay";
import { StatusLine } from "./panel/status_line";
import { MarkerLog, type MarkerReport } from "./video/frame_marker";
import { StreamStats } from "./stream_stats";
import { PictureCounter } from "./video/stripes";
import type { ClientState } from "./client_state";
import type { VoxlStats } from "./test_hook";
import type { OverlayFigures } from "./panel/stats_overlay";
import type { VideoOutput } from "./video/video_output";
import type { DecodedInfo, RendererEvents } from "./video/video_renderer";
import type { View } from "./view/view";

export class Client {
  private state: ClientState = "connecting";
  private connections = 0;
  private lastError: string | null = null;
  private serverStats: StatsMessage | null = null;
  private readonly stats = new StreamStats();
  // Which decoded frames start a new picture (a striped stream's bands of
  // one capture make one), for the frame rate.
  private readonly pictures = new PictureCounter();
  // How many streams the last decoded frame's picture was coded as.
  private stripes = 1;
  private readonly clock = new ClockSync();
  private readonly conn: StreamConnection;
  private readonly markers = new MarkerLog();
  private readonly audio = new AudioPlayer((captureUs) => this.clock.latencyMs(captureUs, performance.now()));
  private readonly microphone: MicrophoneSender;
  private readonly statusLine: StatusLine;
  readonly audioControls: AudioControls;
  readonly interaction: Interaction;
  // The control panel, once main.ts has made it.
  session: SessionListener | null = null;
  readonly sizer: DesktopSizer;
  // Touch mode, on-screen keyboard and pinch zoom, for the panel's buttons.
  readonly touch: TouchControls;

  constructor(
    private readonly view: View,
    private readonly status: StatusOverlay,
    private wantStats: boolean,
    canvas: ScreenElement,
    private readonly decoder: VideoOutput,
    connect: ConnectionFactory,
  ) {
    this.interaction = new Interaction(canvas, (m) => this.send(m), view, touchModeFromQuery(window.location.search));
    this.touch = this.interaction.touch;
    view.onLayout(() => this.interaction.pictureMoved());
    this.statusLine = new StatusLine(document.body);
    this.sizer = new DesktopSizer(view, (m) => this.send(m), this.statusLine);
    this.microphone = new MicrophoneSender((m) => this.conn.sendBinary(m));
    this.audioControls = new AudioControls(this.audio, this.microphone);
    this.conn = connect({
      opened: () => this.opened(),
      closed: (reason, retryAt, detail) => this.closed(reason, retryAt, detail),
      refused: (verdict) => this.refused(verdict),
      text: (data) => this.text(data),
      binary: (data) => this.binary(data),
    });
  }

  // What the decoder and drawer report, wherever they run.
  readonly videoEvents: RendererEvents = {
    decoded: (d) => this.decoded(d),
    drawn: (d) => {
      this.stats.drawn(d.width, d.height);
      this.view.shown(d.width, d.height);
    },
    skipped: () => this.stats.framesSkipped++,
    dropped: () => this.stats.droppedFrames++,
    needKeyFrame: (reason) => {
      if (this.send({ type: "keyframe", reason })) this.stats.keyframeRequests++;
    },
    error: (message, fatal) => {
      this.stats.decoderErrors++;
      this.lastError = message;
      console.warn(`voxl: ${message}`);
      if (fatal) {
        this.state = "error";
        this.view.clear();
        this.status.error("Cannot show the stream", message);
      }
    },
    marker: (r) => this.markers.add(r),
  };

  start(): void {
    this.status.connecting();
    this.conn.start();
  }

  private send(msg: ClientMessage): boolean {
    return this.conn.send(msg);
  }

  // The panel's own messages: this viewer's settings and control handover.
  sendPanelMessage(msg: SettingsRequest | ControlRequest): boolean {
    return this.send(msg);
  }

  // The stats overlay came or went: the server's figures with it.
  setStatsWanted(on: boolean): void {
    if (on === this.wantStats) return;
    this.wantStats = on;
    if (this.state === "connected" || this.state === "streaming") this.send({ type: "stats", enabled: on });
    if (!on) this.serverStats = null;
  }

  get connectionState(): ClientState {
    return this.state;
  }

  private opened(): void {
    this.connections++;
    this.state = "connected";
    this.resetSession();
    this.sizer.connectionOpened();
    this.status.connected();
    this.clock.start((ping) => this.send(ping));
    if (this.wantStats) this.send({ type: "stats", enabled: true });
    const connection = this.connections;
    void decoderMessage().then((m) => {
      if (this.connections === connection && this.state === "connected") this.send(m);
    });
  }

  private closed(reason: string, retryAt: number, detail?: string[]): void {
    this.state = "reconnecting";
    this.lastError = detail ? `${reason}: ${detail.join(" ")}` : reason;
    this.resetSession();
    this.interaction.reset();
    this.view.clear();
    this.status.reconnecting(reason, retryAt, detail);
    this.session?.disconnected();
  }

  // voxl refused the stream for a reason retrying cannot fix: say what and
  // how to fix it, and stay.
  private refused(verdict: StreamVerdict): void {
    this.state = "error";
    this.lastError = `${verdict.title}: ${verdict.lines.join(" ")}`;
    this.resetSession();
    this.interaction.reset();
    this.view.clear();
    this.status.blocked(verdict.title, [...verdict.lines, "Reload the page once it is fixed."]);
    this.session?.disconnected();
  }

  // Nothing carries over from one connection to the next: the new one starts
  // with a video message and a key frame.
  private resetSession(): void {
    this.decoder.reset();
    this.clock.stop();
    this.stats.resetWindows();
    this.pictures.reset();
    this.serverStats = null;
  }

  private text(data: string): void {
    const msg = parseServerMessage(data);
    if (!msg) return;
    switch (msg.type) {
      case "hello":
        // Newer servers stay readable: unknown header bytes and messages are skipped.
        if (msg.version !== PROTOCOL_VERSION) {
          console.warn(`voxl: server speaks protocol ${msg.version}, this page ${PROTOCOL_VERSION}`);
        }
        this.audioControls.allowMicrophone(msg.microphone === true);
        this.session?.hello(msg);
        break;
      case "audio":
        this.audio.configure(msg.rate, msg.channels);
        this.audioControls.showSound();
        break;
      case "video":
        this.decoder.configure(videoConfig(msg));
        if (this.state === "error") {
          this.state = "connected";
          this.status.connected();
        }
        break;
      case "pong":
        this.clock.onPong(msg);
        break;
      case "stats":
        this.serverStats = msg;
        break;
      case "interaction":
        this.sizer.setViewOnly(msg.view_only);
        this.interaction.onMessage(msg);
        this.session?.interaction(msg);
        break;
      case "settings":
        this.session?.settingsApplied(msg);
        break;
      case "viewers":
        this.interaction.onMessage(msg);
        this.session?.viewersChanged(msg);
        break;
      case "refused":
        // Sent once (per loss of control): say so where the viewer looks.
        if (msg.what === "input" && msg.reason === REFUSED_CONTROL_REASON) {
          this.statusLine.say("Another viewer has control: request it in the panel (Ctrl+Alt+Shift+M)");
        } else if (msg.what === "input") {
          this.statusLine.say(`Input refused: ${msg.reason}`);
        }
        this.session?.refused(msg);
        this.interaction.onMessage(msg);
        break;
      case "resize":
        this.sizer.onMessage(msg);
        break;
      default:
        this.interaction.onMessage(msg);
    }
  }

  private binary(buf: ArrayBuffer): void {
    const a = readAudioHeader(buf);
    if (a) {
      this.audio.packet(a.sequence, a.captureUs, new Uint8Array(buf, a.payloadOffset));
      return;
    }
    const h = readVideoHeader(buf);
    if (!h) return;
    const now = performance.now();
    this.stats.received(now, buf.byteLength - h.payloadOffset);
    this.decoder.decode(h, buf, performance.timeOrigin + now);
  }

  // Acknowledged once decoded, drawn or not: the server's rate control wants
  // to know what got through, and a frame replaced by a newer one before the
  // display could show it got through all the same.
  private decoded(f: DecodedInfo): void {
    const now = performance.now();
    const latency = this.clock.latencyMs(f.captureUs, now);
    this.stripes = f.stripes;
    this.stats.decoded(now, f.frameId, f.decodeMs, latency, this.pictures.count(f.stripes, f.captureUs));
    const holdMs = Math.max(f.decodeMs, performance.timeOrigin + now - f.receivedAt);
    this.send({
      type: "ack",
      id: f.frameId,
      decode_ms: round3(f.decodeMs),
      hold_ms: round3(holdMs),
      queued: f.queued,
    });
    if (this.state !== "streaming") {
      this.state = "streaming";
      this.status.hide();
    }
  }

  figures(): OverlayFigures {
    const now = performance.now();
    return {
      ...this.stats.snapshot(now),
      presentedFps: this.decoder.presentedPerSecond?.(now) ?? null,
      rttMs: this.clock.bestRttMs,
      codec: this.decoder.codec,
      server: this.serverStats,
    };
  }

  audioStats(): unknown {
    return { ...this.audio.stats(), microphone: this.microphone.stats() };
  }

  latencies(): number[] {
    return this.stats.latencies();
  }

  markerReport(): MarkerReport {
    return this.markers.snapshot();
  }

  testStats(): VoxlStats {
    const f = this.figures();
    return {
      state: this.state,
      connected: this.conn.isOpen,
      connections: this.connections,
      framesDecoded: f.framesDecoded,
      framesDrawn: f.framesDrawn,
      framesSkipped: f.framesSkipped,
      framesPresented: this.decoder.presentedTotal?.() ?? null,
      drawer: this.decoder.drawer,
      stripes: this.stripes,
      lastFrameId: f.lastFrameId,
      width: f.width,
      height: f.height,
      codec: f.codec,
      fps: f.fps,
      latencyMs: f.latencyMs,
      latencyP50Ms: f.latencyP50Ms,
      decodeMs: f.decodeMs,
      rttMs: f.rttMs,
      clockOffsetMs: this.clock.offsetMs,
      droppedFrames: f.droppedFrames,
      errors: f.decoderErrors,
      keyframeRequests: f.keyframeRequests,
      lastError: this.lastError,
    };
  }
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
