// The recorded sessions page (sessions.html): the list of sessions, or one
// session playing, as the address's hash says ("#id=ID" for a session,
// nothing for the list). Opening a session writes its hash, so the address
// can be shared; the browser's Back returns to the list.

import { hashForSession, sessionIdFromHash } from "./location_hash";
import { setPageState, showError } from "./page_state";
import { PlayerView } from "./player_view";
import { SessionTable } from "./session_list";
import { errorText, isAbort, SessionsApi } from "./sessions_api";

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`sessions.html has no #${id}`);
  return el;
}

const api = new SessionsApi((url, init) => fetch(url, init), location.href);
const listView = byId("list-view", HTMLElement);
const playerView = byId("player-view", HTMLElement);
const refresh = byId("refresh", HTMLButtonElement);
const table = new SessionTable(
  byId("sessions-body", HTMLTableSectionElement),
  byId("no-sessions", HTMLElement),
  byId("recording", HTMLElement),
  (id) => navigate(hashForSession(id)),
);
const view = new PlayerView(
  {
    title: byId("session-title", HTMLElement),
    meta: byId("session-meta", HTMLElement),
    notes: byId("session-notes", HTMLElement),
    download: byId("download", HTMLAnchorElement),
    video: byId("player", HTMLVideoElement),
    play: byId("play", HTMLButtonElement),
    speed: byId("speed", HTMLSelectElement),
    clock: byId("clock", HTMLElement),
    timeline: byId("timeline", HTMLElement),
    events: byId("events", HTMLElement),
    eventsNote: byId("events-note", HTMLElement),
  },
  api,
);

const LIST = Symbol("list");
let shown: string | typeof LIST | null = null; // what the page shows
let pending: AbortController | null = null; // the fetch under way

// Goes to `hash` ("" for the list) as a new history entry.
function navigate(hash: string): void {
  history.pushState(null, "", hash === "" ? location.pathname + location.search : hash);
  route();
}

function route(): void {
  const id = sessionIdFromHash(location.hash);
  const target = id ?? LIST;
  if (target === shown) return;
  if (id === null) void showList();
  else void openSession(id);
}

function begin(): AbortController {
  pending?.abort();
  pending = new AbortController();
  return pending;
}

async function showList(): Promise<void> {
  shown = LIST;
  view.close();
  playerView.hidden = true;
  listView.hidden = false;
  document.title = "Recorded sessions · voxl";
  showError(null);
  await loadList();
}

async function loadList(): Promise<void> {
  const ac = begin();
  setPageState("loading");
  refresh.disabled = true;
  try {
    const list = await api.list(ac.signal);
    if (ac.signal.aborted) return;
    table.show(list);
  } catch (e) {
    if (isAbort(e) || ac.signal.aborted) return;
    table.clear();
    showError(errorText(e));
  } finally {
    if (pending === ac) {
      refresh.disabled = false;
      setPageState("list");
    }
  }
}

// Opens session `id`, paused at `startMs`.
async function openSession(id: string, startMs = 0): Promise<void> {
  shown = id;
  const ac = begin();
  view.close();
  showError(null);
  listView.hidden = true;
  playerView.hidden = false;
  setPageState("loading");
  refresh.disabled = true;
  try {
    const info = await api.info(id, ac.signal);
    if (ac.signal.aborted) return;
    document.title = `Session ${info.id} · voxl`;
    view.show(info, startMs);
  } catch (e) {
    if (isAbort(e) || ac.signal.aborted) return;
    // Back to the list, saying why the session did not open.
    history.replaceState(null, "", location.pathname + location.search);
    await showList();
    showError(errorText(e));
  } finally {
    if (pending === ac) refresh.disabled = false;
  }
}

refresh.addEventListener("click", () => {
  if (shown === LIST || shown === null) void loadList();
  else void openSession(shown, view.sessionMs);
});
byId("back", HTMLButtonElement).addEventListener("click", () => navigate(""));
window.addEventListener("hashchange", route);
window.addEventListener("popstate", route);
route();
