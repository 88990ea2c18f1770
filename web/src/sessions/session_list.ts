// The table of recorded sessions: who, when, how long, how big, whether it
// is still recording and why it stopped early. A row opens its session on
// a click or with Enter (or Space).

import { humanBytes } from "../files/human_units";
import type { SessionList, SessionSummary } from "./session_data";
import { lengthText, localTimeText } from "./time_text";
import { usersText } from "./user_names";

export class SessionTable {
  constructor(
    private readonly body: HTMLTableSectionElement,
    private readonly empty: HTMLElement, // shown when there are no sessions
    private readonly recordingNote: HTMLElement,
    private readonly open: (id: string) => void,
  ) {}

  show(list: SessionList): void {
    this.recordingNote.textContent = list.recording ? "Recording now." : "Not recording right now.";
    this.recordingNote.classList.toggle("recording", list.recording);
    this.body.replaceChildren(...list.sessions.map((s) => this.row(s)));
    this.empty.hidden = list.sessions.length > 0;
    this.setTableShown(list.sessions.length > 0);
  }

  // Empties the table, for when the list could not be read.
  clear(): void {
    this.recordingNote.textContent = "";
    this.body.replaceChildren();
    this.empty.hidden = true;
    this.setTableShown(false);
  }

  private setTableShown(on: boolean): void {
    const table = this.body.closest("table");
    if (table) table.hidden = !on;
  }

  private row(s: SessionSummary): HTMLTableRowElement {
    const tr = document.createElement("tr");
    tr.className = "session";
    tr.dataset.id = s.id;
    tr.tabIndex = 0;
    tr.setAttribute("role", "link");
    const who = usersText(s.users);
    const when = localTimeText(s.startedMs);
    tr.setAttribute("aria-label", `Play the session of ${who} from ${when}`);
    tr.append(
      cell(who, "who"),
      cell(when, "when"),
      cell(s.live ? `${lengthText(s.durationMs)} so far` : lengthText(s.durationMs), "length"),
      cell(humanBytes(s.bytes), "size"),
      this.stateCell(s),
    );
    tr.addEventListener("click", () => this.open(s.id));
    tr.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      this.open(s.id);
    });
    return tr;
  }

  private stateCell(s: SessionSummary): HTMLTableCellElement {
    const td = cell("", "state");
    if (s.live) {
      const live = document.createElement("span");
      live.className = "live";
      live.textContent = "● live";
      td.append(live);
    }
    if (s.stopped) {
      const stopped = document.createElement("span");
      stopped.className = "stopped";
      stopped.textContent = `Stopped early: ${s.stopped}`;
      td.append(stopped);
    }
    return td;
  }
}

function cell(text: string, className: string): HTMLTableCellElement {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
  return td;
}
