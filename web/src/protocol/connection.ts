// The viewer's one WebSocket, reopened with exponential backoff whenever it
// drops, unless the server refused it for a reason retrying cannot fix
// (stream_refusal.ts). Knows nothing of what the messages mean.

import type { ClientMessage } from "./messages";
import { streamCheckUrl, verdictFromCheck, type StreamVerdict } from "./stream_refusal";

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;

export interface ConnectionEvents {
  opened(): void;
  text(data: string): void;
  binary(data: ArrayBuffer): void;
  // The socket is gone; another attempt starts at `retryAt` (performance.now()
  // ms). `detail`: what the server said about it, one paragraph each.
  closed(reason: string, retryAt: number, detail?: string[]): void;
  // The server refused the stream and says why; no attempt follows.
  refused(verdict: StreamVerdict): void;
}

// What the client needs of its connection: Connection below, or a fake in
// the tests, which then play the server through the ConnectionEvents.
export interface StreamConnection {
  readonly isOpen: boolean;
  start(): void;
  send(msg: ClientMessage): boolean;
  sendBinary(data: ArrayBuffer): boolean;
}

// Makes the client's connection, reporting to `events` (the real one:
// main.ts, a Connection to streamUrl()).
export type ConnectionFactory = (events: ConnectionEvents) => StreamConnection;

const CHECK_TIMEOUT_MS = 5000;

// The stream's address beside the page: under a reverse proxy at
// https://host/desktops/7/ it is wss://host/desktops/7/ws. The query and
// fragment of the page are not carried over.
export function streamUrl(loc: Pick<Location, "href"> = window.location): string {
  const url = new URL("ws", loc.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.href;
}

export class Connection implements StreamConnection {
  private socket: WebSocket | null = null;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer = 0;

  constructor(
    private readonly url: string,
    private readonly events: ConnectionEvents,
  ) {}

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    window.clearTimeout(this.retryTimer);
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      // A malformed URL throws instead of closing; treat it like any failure.
      this.scheduleRetry(e instanceof Error ? e.message : String(e));
      return;
    }
    ws.binaryType = "arraybuffer";
    this.socket = ws;
    let wasOpen = false;
    ws.onopen = () => {
      wasOpen = true;
      this.retryMs = FIRST_RETRY_MS;
      this.events.opened();
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data === "string") this.events.text(ev.data);
      else if (ev.data instanceof ArrayBuffer) this.events.binary(ev.data);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.socket !== ws) return;
      this.socket = null;
      if (wasOpen || ev.code !== 1006) this.scheduleRetry(describeClose(ev, wasOpen));
      else void this.explainFailedOpen();
    };
  }

  // Returns false when the socket is not open; control messages are not
  // worth queueing across a reconnect because the session state resets.
  send(msg: ClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  // Binary media from the page (the microphone). Dropped rather than
  // queued while the socket is backed up: late sound is worse than a gap.
  sendBinary(data: ArrayBuffer): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BINARY) return false;
    this.socket.send(data);
    return true;
  }

  // The socket closed before it opened: refused by voxl, or never reached
  // it. Ask ws-check which.
  private async explainFailedOpen(): Promise<void> {
    let verdict: StreamVerdict | null = null;
    let reachable = false;
    try {
      const res = await fetch(streamCheckUrl(), {
        method: "POST",
        cache: "no-store",
        credentials: "same-origin",
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      reachable = true;
      const json: unknown = (res.headers.get("content-type") ?? "").includes("json")
        ? await res.json().catch(() => null)
        : null;
      verdict = verdictFromCheck(res.status, json);
    } catch {
      // Not even the check got through: the server is down or unreachable.
    }
    if (this.socket) return;  // started again meanwhile
    if (!verdict) return this.scheduleRetry(reachable ? "the stream did not open" : "cannot reach the server");
    if (verdict.final) {
      window.clearTimeout(this.retryTimer);
      this.events.refused(verdict);
      return;
    }
    this.scheduleRetry(verdict.title, verdict.retryMs ?? 0, verdict.lines);
  }

  private scheduleRetry(reason: string, minDelayMs = 0, detail?: string[]): void {
    const delay = Math.max(this.retryMs, minDelayMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = window.setTimeout(() => this.start(), delay);
    this.events.closed(reason, performance.now() + delay, detail);
  }
}

const MAX_BUFFERED_BINARY = 16 * 1024;

function describeClose(ev: CloseEvent, wasOpen: boolean): string {
  if (ev.code === 1000) return ev.reason || "the server closed the connection";
  if (ev.code === 1006) return wasOpen ? "connection lost" : "cannot reach the server";
  return `connection closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ""})`;
}
