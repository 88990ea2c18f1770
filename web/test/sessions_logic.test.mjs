// The recorded sessions page's logic, without a browser: the timeline over
// the segments (gaps, before and past the ends, fractions of the bar), the
// event lines, times and users in words, the server's JSON read into
// shapes, the addresses and the error wording of the API, and the hash
// that names a session.
//
//   node --test web/test/sessions_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { locate, sessionLength, sessionTimeOf, fractionOf, timeAtFraction, segmentSpans, lastAtOrBefore } = await load(
  "src/sessions/timeline.ts",
);
const { eventText, unknownText, valueText } = await load("src/sessions/event_text.ts");
const { clockText, clockPair, lengthText, localTimeText } = await load("src/sessions/time_text.ts");
const { userLabel, usersText } = await load("src/sessions/user_names.ts");
const { readSessionList, readSessionInfo } = await load("src/sessions/session_data.ts");
const api = await load("src/sessions/sessions_api.ts");
const { sessionIdFromHash, hashForSession } = await load("src/sessions/location_hash.ts");

const seg = (index, startMs, durationMs) => ({ index, startMs, durationMs, bytes: 0, width: 1920, height: 1080 });
// 0-10 s, a gap to 12 s, 12-20 s, 20-30 s.
const SEGMENTS = [seg(1, 0, 10000), seg(2, 12000, 8000), seg(3, 20000, 10000)];
const ev = (event, fields = {}, tMs = 0) => ({ tMs, event, fields });

test("a moment inside a segment plays at its offset there", () => {
  assert.deepEqual(locate(SEGMENTS, 0), { position: 0, offsetMs: 0, sessionMs: 0 });
  assert.deepEqual(locate(SEGMENTS, 4500), { position: 0, offsetMs: 4500, sessionMs: 4500 });
  assert.deepEqual(locate(SEGMENTS, 15000), { position: 1, offsetMs: 3000, sessionMs: 15000 });
  // A segment's end is the next one's start when they touch.
  assert.deepEqual(locate(SEGMENTS, 20000), { position: 2, offsetMs: 0, sessionMs: 20000 });
  assert.deepEqual(locate(SEGMENTS, 29999), { position: 2, offsetMs: 9999, sessionMs: 29999 });
});

test("a moment in a gap, or before the first segment, goes to the next segment's start", () => {
  assert.deepEqual(locate(SEGMENTS, 10000), { position: 1, offsetMs: 0, sessionMs: 12000 });
  assert.deepEqual(locate(SEGMENTS, 11999), { position: 1, offsetMs: 0, sessionMs: 12000 });
  const late = [seg(4, 3000, 5000)];
  assert.deepEqual(locate(late, 1000), { position: 0, offsetMs: 0, sessionMs: 3000 });
  assert.deepEqual(locate(SEGMENTS, -50), { position: 0, offsetMs: 0, sessionMs: 0 });
});

test("past the end is the end of the last segment; no segments, nowhere", () => {
  assert.deepEqual(locate(SEGMENTS, 30000), { position: 2, offsetMs: 10000, sessionMs: 30000 });
  assert.deepEqual(locate(SEGMENTS, 1e9), { position: 2, offsetMs: 10000, sessionMs: 30000 });
  assert.equal(locate([], 5000), null);
  assert.deepEqual(locate(SEGMENTS, NaN), { position: 0, offsetMs: 0, sessionMs: 0 });
});

test("the session's length, and the moment a segment's video time shows", () => {
  assert.equal(sessionLength(SEGMENTS, 0), 30000);
  assert.equal(sessionLength(SEGMENTS, 31000), 31000);
  assert.equal(sessionLength([], 5000), 5000);
  assert.equal(sessionTimeOf(SEGMENTS[1], 2.5), 14500);
  assert.equal(sessionTimeOf(SEGMENTS[1], NaN), 12000);
});

test("positions on the bar as fractions, and back", () => {
  assert.equal(fractionOf(15000, 30000), 0.5);
  assert.equal(fractionOf(0, 30000), 0);
  assert.equal(fractionOf(45000, 30000), 1);
  assert.equal(fractionOf(-5, 30000), 0);
  assert.equal(fractionOf(100, 0), 0);
  assert.equal(timeAtFraction(0.25, 30000), 7500);
  assert.equal(timeAtFraction(1.5, 30000), 30000);
  assert.equal(timeAtFraction(-0.1, 30000), 0);
  assert.equal(timeAtFraction(0.5, 0), 0);
  const spans = segmentSpans(SEGMENTS, 40000);
  assert.deepEqual(spans, [
    [0, 0.25],
    [0.3, 0.5],
    [0.5, 0.75],
  ]);
});

test("the event last passed", () => {
  const times = [0, 1000, 1000, 5000];
  assert.equal(lastAtOrBefore(times, -1), -1);
  assert.equal(lastAtOrBefore(times, 0), 0);
  assert.equal(lastAtOrBefore(times, 1000), 2);
  assert.equal(lastAtOrBefore(times, 4999), 2);
  assert.equal(lastAtOrBefore(times, 9000), 3);
  assert.equal(lastAtOrBefore([], 9000), -1);
});

test("known events in a line each", () => {
  assert.equal(eventText(ev("connect", { user: "alice", address: "10.0.0.5", viewer: 3 })), "alice connected from 10.0.0.5");
  assert.equal(eventText(ev("connect", { user: "", role: "view-only" })), "(built-in user) connected (view only)");
  assert.equal(eventText(ev("leave", { user: "bob", viewer: 4 })), "bob left");
  assert.equal(eventText(ev("leave", { viewer: 4 })), "viewer 4 left");
  assert.equal(eventText(ev("control", { from: 3, from_user: "alice", to: 4, to_user: "bob" })), "control: alice → bob");
  assert.equal(eventText(ev("control", { from: 0, from_user: "", to: 4, to_user: "" })), "control: nobody → (built-in user)");
  assert.equal(
    eventText(ev("clipboard", { direction: "out", mime: "text/plain", bytes: 1229 })),
    "clipboard out, text/plain, 1.2 KiB",
  );
  assert.equal(
    eventText(ev("clipboard", { direction: "out", mime: "image/png", bytes: 10, viewers: 2 })),
    "clipboard out, image/png, 10 B, to 2 viewers",
  );
  assert.equal(eventText(ev("clipboard", { direction: "in", user: "alice" })), "clipboard in (alice)");
  assert.equal(eventText(ev("request", { method: "POST", path: "/input", status: 200, user: "alice" })), "POST /input → 200 (alice)");
  assert.equal(
    eventText(ev("request", { method: "GET", path: "/files/download", query: "path=a.txt", status: "cancelled", user: "" })),
    "GET /files/download?path=a.txt → cancelled (built-in user)",
  );
  assert.equal(eventText(ev("keys", { count: 12, user: "alice" })), "keys ×12 (alice)");
  assert.equal(eventText(ev("sign_in", { user: "carol", address: "192.0.2.1" })), "carol signed in from 192.0.2.1");
});

test("an unknown kind lists its fields as text, HTML and all", () => {
  assert.equal(
    eventText(ev("resize", { width: 1280, height: 720, by: "alice" })),
    "resize width=1280 height=720 by=alice",
  );
  const line = eventText(ev("note", { text: "<img src=x onerror=alert(1)>&amp;", list: [1, "two"], nothing: null }));
  assert.equal(line, 'note text=<img src=x onerror=alert(1)>&amp; list=[1,"two"] nothing=null');
  assert.equal(unknownText("ping", {}), "ping");
  assert.equal(valueText({ a: 1 }), '{"a":1}');
  assert.equal(valueText(true), "true");
});

test("the clock, lengths and local times", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(999), "0:00");
  assert.equal(clockText(65000), "1:05");
  assert.equal(clockText(3599999), "59:59");
  assert.equal(clockText(3600000), "1:00:00");
  assert.equal(clockText(-5), "0:00");
  assert.equal(clockPair(15000, 125000), "0:15 / 2:05");
  assert.equal(lengthText(45000), "45 s");
  assert.equal(lengthText(125000), "2 min 5 s");
  assert.equal(lengthText(3780000), "1 h 3 min");
  assert.equal(lengthText(0), "0 s");
  assert.equal(lengthText(-1), "–");
  const local = new Date(2026, 11, 5, 9, 7, 3).getTime();
  assert.equal(localTimeText(local), "2026-12-05 09:07");
  assert.equal(localTimeText(local, true), "2026-12-05 09:07:03");
  assert.equal(localTimeText(0), "–");
});

test("users by name, the built-in one in words", () => {
  assert.equal(userLabel(""), "(built-in user)");
  assert.equal(userLabel("alice"), "alice");
  assert.equal(usersText(["alice", "", "alice", "bob"]), "alice, (built-in user), bob");
  assert.equal(usersText([]), "–");
});

test("the list and a session's info read from the server's JSON", () => {
  const list = readSessionList({
    recording: true,
    sessions: [
      { id: "20261205T101500Z-3f2a9c", started_ms: 1796465700000, ended_ms: null, duration_ms: 5000, bytes: 12, users: ["alice", 7], segments: 1, live: true, stopped: null },
      { id: "", started_ms: 1 },
      "junk",
      { id: "b", stopped: "the disk is full", duration_ms: -3 },
    ],
  });
  assert.equal(list.recording, true);
  assert.equal(list.sessions.length, 2);
  assert.deepEqual(list.sessions[0].users, ["alice"]);
  assert.equal(list.sessions[0].endedMs, null);
  assert.equal(list.sessions[0].live, true);
  assert.equal(list.sessions[1].stopped, "the disk is full");
  assert.equal(list.sessions[1].durationMs, 0);
  assert.deepEqual(readSessionList({}), { recording: false, sessions: [] });

  const info = readSessionInfo(
    {
      id: "s1",
      segments: [
        { index: 2, start_ms: 12000, duration_ms: 8000, bytes: 5, width: 1280, height: 720 },
        { index: 1, start_ms: 0, duration_ms: 10000, bytes: 5, width: 1280, height: 720 },
        { start_ms: 3 },
      ],
      events: [
        { t_ms: 900, event: "leave", user: "bob" },
        { t_ms: 100, event: "connect", user: "bob", address: "10.0.0.5" },
        { t_ms: 900, event: "keys", count: 2 },
        { t_ms: 5 },
      ],
      events_truncated: true,
    },
    "asked",
  );
  assert.deepEqual(info.segments.map((s) => s.index), [1, 2]);
  assert.deepEqual(info.events.map((e) => e.event), ["connect", "leave", "keys"]);
  assert.deepEqual(info.events[0].fields, { user: "bob", address: "10.0.0.5" });
  assert.equal(info.eventsTruncated, true);
  assert.equal(readSessionInfo({}, "asked").id, "asked");
});

test("addresses are relative, so the page works under a proxy's prefix", async () => {
  assert.equal(api.infoPath("a b&c"), "sessions/info?id=a%20b%26c");
  assert.equal(api.videoPath("x", 3), "sessions/video?id=x&segment=3");
  assert.equal(api.downloadPath("x"), "sessions/download?id=x");
  const asked = [];
  const fake = async (url, init) => {
    asked.push([url, init.credentials]);
    return new Response(JSON.stringify({ recording: false, sessions: [] }), { status: 200 });
  };
  const client = new api.SessionsApi(fake, "https://host.example/desktops/7/sessions.html#id=q");
  await client.list();
  assert.deepEqual(asked, [["https://host.example/desktops/7/sessions/list", "same-origin"]]);
  assert.equal(client.href(api.videoPath("s", 1)), "https://host.example/desktops/7/sessions/video?id=s&segment=1");
});

test("failures in words: not an admin, not recording, unreachable", async () => {
  const answering = (status, body) => async () => new Response(body, { status });
  const failure = async (client, call) => {
    try {
      await call(client);
    } catch (e) {
      return e;
    }
    assert.fail("no failure");
  };
  const base = "http://h/";
  const forbidden = await failure(new api.SessionsApi(answering(403, '{"error":"no admin right"}'), base), (c) => c.list());
  assert.equal(forbidden.message, "Recorded sessions are for admins: sign in as a user with the admin right.");
  assert.equal(forbidden.status, 403);
  const off = await failure(new api.SessionsApi(answering(404, '{"error":"off"}'), base), (c) => c.list());
  assert.equal(off.message, "voxl is not recording sessions: start it with --record-sessions DIR.");
  const gone = await failure(new api.SessionsApi(answering(404, '{"error":"no session s9","parameter":"id"}'), base), (c) => c.info("s9"));
  assert.equal(gone.message, "The session could not be found: no session s9.");
  assert.equal(api.failureText(404, null, "session"), "No such session: the server does not know it.");
  const busy = await failure(new api.SessionsApi(answering(503, "not json"), base), (c) => c.list());
  assert.equal(busy.message, "The server is busy: try again soon.");
  const down = async () => {
    throw new TypeError("fetch failed");
  };
  const unreachable = await failure(new api.SessionsApi(down, base), (c) => c.list());
  assert.equal(unreachable.message, "The server cannot be reached (fetch failed).");
  const junk = await failure(new api.SessionsApi(answering(200, "<html>"), base), (c) => c.list());
  assert.match(junk.message, /made no sense/);
  assert.equal(api.failureText(500, "boom", "list"), "Server error 500: boom.");
  assert.equal(await new api.SessionsApi(answering(206, "x"), base).problemWith("sessions/video?id=a&segment=1"), null);
  const refused = await new api.SessionsApi(answering(403, "{}"), base).problemWith("sessions/video?id=a&segment=1");
  assert.equal(refused.status, 403);
  assert.equal(refused.message, api.NOT_ADMIN);
  const missing = await new api.SessionsApi(answering(404, '{"error":"no segment 9","parameter":"segment"}'), base).problemWith(
    "sessions/video?id=a&segment=9",
  );
  assert.equal(missing.message, "The server does not have it: no segment 9.");
});

test("the hash names the open session", () => {
  assert.equal(sessionIdFromHash(""), null);
  assert.equal(sessionIdFromHash("#"), null);
  assert.equal(sessionIdFromHash("#id="), null);
  assert.equal(sessionIdFromHash("#id=20261205T101500Z-3f2a9c"), "20261205T101500Z-3f2a9c");
  assert.equal(hashForSession("20261205T101500Z-3f2a9c"), "#id=20261205T101500Z-3f2a9c");
  const odd = "a b&c=d#e";
  assert.equal(sessionIdFromHash(hashForSession(odd)), odd);
});
