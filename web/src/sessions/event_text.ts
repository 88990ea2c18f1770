// One short line per recorded event, for the event list and the markers'
// tooltips: "alice connected from 10.0.0.5", "control: alice → bob",
// "POST /input → 200 (alice)". Kinds this page does not know come out as
// "kind k=v ...". The result is plain text, for textContent. Pure.

import { humanBytes } from "../files/human_units";
import type { SessionEvent } from "./session_data";
import { userLabel } from "./user_names";

type Fields = Record<string, unknown>;

const MAX_QUERY = 80;

export function eventText(e: SessionEvent): string {
  const f = e.fields;
  switch (e.event) {
    case "connect":
      return `${who(f)} connected${from(f)}${f.role === "view-only" ? " (view only)" : ""}`;
    case "leave":
      return `${who(f)} left`;
    case "sign_in":
      return `${who(f)} signed in${from(f)}`;
    case "sign_in_failed":
      return `sign-in failed${from(f)}${byUser(f)}`;
    case "control":
      return `control: ${holder(f, "from")} → ${holder(f, "to")}`;
    case "clipboard":
      return clipboard(f) + byUser(f);
    case "request":
      return request(f) + byUser(f);
    case "keys":
      return `keys${typeof f.count === "number" ? ` ×${f.count}` : ""}${byUser(f)}`;
    default:
      return unknownText(e.event, f);
  }
}

// "kind k=v k2=v2": every field, its value as text.
export function unknownText(kind: string, f: Fields): string {
  const parts = Object.entries(f).map(([k, v]) => `${k}=${valueText(v)}`);
  return parts.length === 0 ? kind : `${kind} ${parts.join(" ")}`;
}

// A field's value as text: strings as they are, anything else as JSON.
export function valueText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined) return "";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() === "" ? null : v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

// The user the event is about; a viewer's number when it names no user.
function who(f: Fields): string {
  if (typeof f.user === "string") return userLabel(f.user);
  if (typeof f.viewer === "number") return `viewer ${f.viewer}`;
  return "someone";
}

function from(f: Fields): string {
  const a = text(f.address);
  return a ? ` from ${a}` : "";
}

// " (alice)"; the built-in user's label brings its own brackets.
function byUser(f: Fields): string {
  if (typeof f.user !== "string") return "";
  const label = userLabel(f.user);
  return label.startsWith("(") ? ` ${label}` : ` (${label})`;
}

// Who held control on one side of a handover: `side` "from" or "to". The
// viewer number 0 (or none) is nobody.
function holder(f: Fields, side: "from" | "to"): string {
  const viewer = f[side];
  const user = f[`${side}_user`];
  if (viewer === 0 || viewer === null) return "nobody";
  if (typeof user === "string") return userLabel(user);
  if (typeof viewer === "number") return `viewer ${viewer}`;
  return "nobody";
}

function size(v: unknown): string | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? humanBytes(v) : null;
}

// "clipboard out, text/plain, 1.2 KiB", leaving out what is not known.
function clipboard(f: Fields): string {
  const direction = text(f.direction);
  const parts = [direction ? `clipboard ${direction}` : "clipboard"];
  for (const part of [text(f.mime), size(f.bytes)]) if (part) parts.push(part);
  if (typeof f.viewers === "number") parts.push(f.viewers === 1 ? "to 1 viewer" : `to ${f.viewers} viewers`);
  return parts.join(", ");
}

function request(f: Fields): string {
  const method = text(f.method) ?? "request";
  let target = text(f.path) ?? "";
  const query = text(f.query);
  if (query) target += `?${query.length > MAX_QUERY ? `${query.slice(0, MAX_QUERY)}…` : query}`;
  const status = text(f.status);
  return `${method}${target ? ` ${target}` : ""}${status ? ` → ${status}` : ""}`;
}
