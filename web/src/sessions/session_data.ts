// Recorded sessions as the server's /sessions endpoints describe them, and
// the reading of their JSON into these shapes: fields of the wrong type
// become safe defaults, so the page never trips over a surprise. Pure.

export interface SessionSummary {
  id: string;
  startedMs: number; // unix ms
  endedMs: number | null; // null while live
  durationMs: number;
  bytes: number;
  users: string[]; // "" is the built-in user or token
  segments: number;
  live: boolean;
  stopped: string | null; // why the recording stopped early
}

export interface SessionList {
  recording: boolean;
  sessions: SessionSummary[];
}

// One part of the session's timeline: its own MP4.
export interface Segment {
  index: number; // the server's number for it, from 1
  startMs: number; // from the session's start
  durationMs: number;
  bytes: number;
  width: number;
  height: number;
}

// Something that happened at `tMs` (from the session's start). `fields`
// holds every member besides t_ms and event, as the server sent them.
export interface SessionEvent {
  tMs: number;
  event: string;
  fields: Record<string, unknown>;
}

export interface SessionInfo {
  id: string;
  startedMs: number;
  endedMs: number | null;
  durationMs: number;
  live: boolean;
  users: string[];
  stopped: string | null;
  segments: Segment[]; // in timeline order
  events: SessionEvent[]; // in time order
  eventsTruncated: boolean;
}

type Json = Record<string, unknown>;

export function readSessionList(j: Json): SessionList {
  const sessions: SessionSummary[] = [];
  for (const item of array(j.sessions)) {
    const r = object(item);
    if (!r || typeof r.id !== "string" || r.id === "") continue;
    sessions.push({
      id: r.id,
      startedMs: count(r.started_ms),
      endedMs: maybeCount(r.ended_ms),
      durationMs: count(r.duration_ms),
      bytes: count(r.bytes),
      users: strings(r.users),
      segments: count(r.segments),
      live: r.live === true,
      stopped: sentence(r.stopped),
    });
  }
  return { recording: j.recording === true, sessions };
}

export function readSessionInfo(j: Json, askedId: string): SessionInfo {
  const segments: Segment[] = [];
  for (const item of array(j.segments)) {
    const r = object(item);
    if (!r) continue;
    const index = maybeCount(r.index);
    if (index === null) continue;
    segments.push({
      index,
      startMs: count(r.start_ms),
      durationMs: count(r.duration_ms),
      bytes: count(r.bytes),
      width: count(r.width),
      height: count(r.height),
    });
  }
  segments.sort((a, b) => a.startMs - b.startMs || a.index - b.index);

  const events: SessionEvent[] = [];
  for (const item of array(j.events)) {
    const r = object(item);
    if (!r || typeof r.event !== "string" || r.event === "") continue;
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) if (k !== "t_ms" && k !== "event") fields[k] = v;
    events.push({ tMs: count(r.t_ms), event: r.event, fields });
  }
  // A stable sort: events at the same moment keep the server's order.
  events.sort((a, b) => a.tMs - b.tMs);

  return {
    id: typeof j.id === "string" && j.id !== "" ? j.id : askedId,
    startedMs: count(j.started_ms),
    endedMs: maybeCount(j.ended_ms),
    durationMs: count(j.duration_ms),
    live: j.live === true,
    users: strings(j.users),
    stopped: sentence(j.stopped),
    segments,
    events,
    eventsTruncated: j.events_truncated === true,
  };
}

function array(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function object(v: unknown): Json | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

function maybeCount(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
}

function count(v: unknown): number {
  return maybeCount(v) ?? 0;
}

function strings(v: unknown): string[] {
  return array(v).filter((s): s is string => typeof s === "string");
}

function sentence(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
}
