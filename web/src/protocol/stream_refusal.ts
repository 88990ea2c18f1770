// Why the stream did not open, in words for the person at the page.
// Browsers hide a refused WebSocket upgrade's status from scripts: the
// socket just closes. So when it closes before opening, the page asks the
// server with a same-origin POST to ws-check (a POST carries the page's
// Origin, as the upgrade did) and reads the answer here. Pure: the fetch is
// the caller's.

export interface StreamVerdict {
  // Stop retrying: retrying cannot fix it (wrong origin, Host, credentials).
  final: boolean;
  title: string;
  // What was refused and the fix, one paragraph each; `code` in backticks.
  lines: string[];
  // When to try again, if the server said (Retry-After), in ms.
  retryMs?: number;
}

// ws-check beside the page, like the stream (connection.ts's streamUrl).
export function streamCheckUrl(loc: Pick<Location, "href"> = window.location): string {
  const url = new URL("ws-check", loc.href);
  url.search = "";
  url.hash = "";
  return url.href;
}

interface CheckBody {
  ok?: unknown;
  error?: unknown;
  fix?: unknown;
  refused?: unknown;
  retry_after?: unknown;
}

function text(v: unknown): string {
  return typeof v === "string" ? v.slice(0, 600) : "";
}

// `status` and `body` (parsed JSON, or null when the answer was not JSON)
// of the check. null: the check found nothing wrong with the page's request
// (or could not tell), so the failure was the network's or a proxy's.
export function verdictFromCheck(status: number, body: unknown): StreamVerdict | null {
  const b: CheckBody = body !== null && typeof body === "object" ? (body as CheckBody) : {};
  const error = text(b.error);
  const fix = text(b.fix);
  const lines = [error, fix].filter((l) => l.length > 0);
  const retryAfter = typeof b.retry_after === "number" && b.retry_after > 0 ? Math.min(b.retry_after, 3600) : 0;
  if (status === 200 && b.ok === true) {
    return {
      final: false,
      title: "The stream did not open",
      lines: [
        "voxl answers this page, but the stream's WebSocket did not get through (voxl may have just restarted).",
        "If this goes on and a reverse proxy is in front of voxl, it must pass the upgrade (nginx: `proxy_http_version 1.1;` " +
          '`proxy_set_header Upgrade $http_upgrade;` `proxy_set_header Connection "upgrade";`).',
      ],
    };
  }
  if (status === 503 && error) {
    return { final: false, title: "voxl is busy", lines, retryMs: (retryAfter || 5) * 1000 };
  }
  if (status === 429 && error) {
    return { final: false, title: "Too many wrong sign-ins", lines, retryMs: (retryAfter || 30) * 1000 };
  }
  if ((status === 401 || status === 403 || status === 400) && error) {
    const title =
      b.refused === "credentials"
        ? "voxl refused the sign-in"
        : b.refused === "origin" || b.refused === "host"
          ? "voxl refused this page's address"
          : "voxl refused the stream";
    return { final: true, title, lines };
  }
  return null;
}
