// What went wrong with a file transfer, in words: the HTTP status gives the
// headline ("Too big", "No space left on the server"...) and the server's
// JSON "error" the detail. Which failures are worth another try lives here
// too. Pure.

import { humanBytes } from "./human_units";

export type FailureKind =
  | "too-big"
  | "no-space"
  | "not-allowed"
  | "name-refused"
  | "expired"
  | "busy"
  | "network"
  | "bad-reply"
  | "server";

// A transfer that failed: `message` is what the panel shows.
export class TransferError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status = 0,
    // A 409's confirmed offset, for carrying on from there.
    readonly offset: number | null = null,
  ) {
    super(message);
    this.name = "TransferError";
  }

  // Worth asking again after a pause: the network, or the server's 5xx
  // other than a full disk.
  get retryable(): boolean {
    return this.kind === "network" || this.kind === "busy" || (this.kind === "server" && this.status >= 500);
  }
}

// `e` as a TransferError, or null. Told by its name rather than by class,
// so that separately bundled copies of this module agree.
export function asTransferError(e: unknown): TransferError | null {
  if (typeof e !== "object" || e === null) return null;
  const r = e as { name?: unknown; kind?: unknown; message?: unknown };
  return r.name === "TransferError" && typeof r.kind === "string" && typeof r.message === "string" ? (e as TransferError) : null;
}

const HEADLINES: Record<number, [FailureKind, string, string]> = {
  400: ["name-refused", "Name refused", "the server does not take this name"],
  403: ["not-allowed", "Not allowed", "this server does not let you do that"],
  404: ["expired", "Not found", "the server no longer knows this upload or folder"],
  413: ["too-big", "Too big", "the file is larger than the server takes"],
  503: ["busy", "The server is busy", "too many uploads are in progress; try again soon"],
  507: ["no-space", "No space left on the server", "the server's disk is too full for this file"],
};

// The error for an HTTP answer with `status` and the server's words (the
// JSON body's "error", when it had one).
export function httpFailure(status: number, words: string | null, offset: number | null = null): TransferError {
  const known = HEADLINES[status];
  const detail = words && words.trim() !== "" ? words.trim() : null;
  if (known) return new TransferError(known[0], `${known[1]}: ${detail ?? known[2]}`, status, offset);
  return new TransferError("server", `Server error ${status}${detail ? `: ${detail}` : ""}`, status, offset);
}

// fetch failed without an answer: the connection, not the server.
export function networkFailure(reason?: string): TransferError {
  const why = reason && reason.trim() !== "" ? ` (${reason.trim()})` : "";
  return new TransferError("network", `Network failure: the server could not be reached${why}`);
}

// An answer that is not the JSON the contract describes.
export function badReply(what: string): TransferError {
  return new TransferError("bad-reply", `The server's answer made no sense: ${what}`);
}

// A file over the server's limit, refused before anything is sent; the
// same headline as the server's 413.
export function tooBigHere(size: number, max: number): TransferError {
  return new TransferError(
    "too-big",
    `Too big: the server takes files up to ${humanBytes(max)}, this one is ${humanBytes(size)}`,
    413,
  );
}

// The note for a finished upload the server saved under another name.
export function savedAsNote(name: string, renamed: boolean): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return renamed ? `saved as ${base}: the name was taken` : `saved as ${base}`;
}
