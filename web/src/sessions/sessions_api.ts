// The server's /sessions endpoints as typed calls over fetch, and what the
// page says when one fails. Every address is relative ("sessions/list"
// resolved against the page's own), so the page works behind a reverse
// proxy at a sub-path. fetch is injected, for tests.

import { readSessionInfo, readSessionList, type SessionInfo, type SessionList } from "./session_data";

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export const NOT_ADMIN = "Recorded sessions are for admins: sign in as a user with the admin right.";
export const NOT_RECORDING = "voxl is not recording sessions: start it with --record-sessions DIR.";

// A failed call, with words for a person in `message`.
export class SessionsError extends Error {
  constructor(
    message: string,
    readonly status = 0, // 0: no answer at all
  ) {
    super(message);
    this.name = "SessionsError";
  }
}

export function listPath(): string {
  return "sessions/list";
}

export function infoPath(id: string): string {
  return `sessions/info?id=${encodeURIComponent(id)}`;
}

export function videoPath(id: string, segment: number): string {
  return `sessions/video?id=${encodeURIComponent(id)}&segment=${segment}`;
}

export function downloadPath(id: string): string {
  return `sessions/download?id=${encodeURIComponent(id)}`;
}

// The words for an answer with `status` and the server's own (its JSON's
// "error"), for a call about `what`: the list, one session, or its video.
export function failureText(status: number, words: string | null, what: "list" | "session" | "video"): string {
  const detail = words && words.trim() !== "" ? words.trim() : null;
  if (status === 403) return NOT_ADMIN;
  if (status === 404 && what === "list") return NOT_RECORDING;
  if (status === 404 && what === "video") return `The server does not have it: ${detail ?? "no such part"}.`;
  if (status === 404) return detail ? `The session could not be found: ${detail}.` : "No such session: the server does not know it.";
  if (status === 400) return `The server refused the request: ${detail ?? "it makes no sense to it"}.`;
  if (status === 503) return `The server is busy: ${detail ?? "try again soon"}.`;
  return `Server error ${status}${detail ? `: ${detail}` : ""}.`;
}

// fetch failed without an answer.
export function unreachableText(reason: string | null): string {
  const why = reason && reason.trim() !== "" ? ` (${reason.trim()})` : "";
  return `The server cannot be reached${why}.`;
}

export class SessionsApi {
  constructor(
    private readonly fetchFn: FetchLike,
    private readonly base: string, // the page's address
  ) {}

  // An address for the page's elements (a video's src, a link's href).
  href(path: string): string {
    return new URL(path, this.base).href;
  }

  async list(signal?: AbortSignal): Promise<SessionList> {
    return readSessionList(await this.json(listPath(), "list", signal));
  }

  async info(id: string, signal?: AbortSignal): Promise<SessionInfo> {
    return readSessionInfo(await this.json(infoPath(id), "session", signal), id);
  }

  // What is wrong with a segment's video at `path`, by the server's answer
  // to a request for its first byte: a SessionsError, or null when it
  // answers fine.
  async problemWith(path: string): Promise<SessionsError | null> {
    let res: Response;
    let text = "";
    try {
      res = await this.fetchFn(this.href(path), { credentials: "same-origin", headers: { Range: "bytes=0-0" } });
      if (!res.ok) text = await res.text();
    } catch (e) {
      return new SessionsError(unreachableText(e instanceof Error ? e.message : String(e)));
    }
    if (res.ok) return null;
    const j = parseObject(text);
    return new SessionsError(failureText(res.status, j && typeof j.error === "string" ? j.error : null, "video"), res.status);
  }

  private async json(path: string, what: "list" | "session", signal?: AbortSignal): Promise<Record<string, unknown>> {
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(this.href(path), { credentials: "same-origin", signal });
      text = await res.text();
    } catch (e) {
      if (isAbort(e) || signal?.aborted) throw e;
      throw new SessionsError(unreachableText(e instanceof Error ? e.message : String(e)));
    }
    const j = parseObject(text);
    if (!res.ok) {
      const words = j && typeof j.error === "string" ? j.error : null;
      throw new SessionsError(failureText(res.status, words, what), res.status);
    }
    if (!j) throw new SessionsError(`The server's answer made no sense: HTTP ${res.status} without JSON.`, res.status);
    return j;
  }
}

export function isAbort(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "AbortError";
}

// The message of anything thrown, for the page's error line.
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const j: unknown = JSON.parse(text);
    if (typeof j === "object" && j !== null && !Array.isArray(j)) return j as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return null;
}
