// The Files panel's browser of the server's files root: a breadcrumb path,
// then the folder's entries (folders first) with size and modified date, a
// click on a folder opening it, and a plain download link per file and per
// folder (a zip), so the browser's own download manager streams it and can
// resume it. Main thread.

import { icon } from "../panel/icons";
import { button, el, section } from "../panel/dom";
import { downloadHref, isAbort, type FilesApi, type ListEntry, type Listing } from "./files_api";
import { humanBytes } from "./human_units";
import { asTransferError } from "./transfer_errors";

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export class FileBrowser {
  readonly element: HTMLElement;
  private readonly crumbs: HTMLElement;
  private readonly note: HTMLParagraphElement;
  private readonly list: HTMLUListElement;
  private path = "";
  private loading: AbortController | null = null;
  private refreshTimer = 0;

  constructor(private readonly api: FilesApi) {
    this.element = section("files-browse", "Browse", "files");
    const bar = this.element.appendChild(el("div", { className: "row files-bar" }));
    this.crumbs = bar.appendChild(el("nav", { id: "files-crumbs" }));
    this.crumbs.setAttribute("aria-label", "Folder");
    const refresh = bar.appendChild(button("files-refresh", "", () => void this.load(this.path), "refresh"));
    refresh.setAttribute("aria-label", "Refresh the list");
    refresh.title = "Refresh";
    this.note = this.element.appendChild(el("p", { id: "files-browse-note", className: "note" }));
    this.note.setAttribute("role", "status");
    this.list = this.element.appendChild(el("ul", { id: "files-list" }));
    this.list.setAttribute("aria-label", "Files and folders");
  }

  get currentPath(): string {
    return this.path;
  }

  // Shows the folder at `path` ("" is the root).
  async load(path: string): Promise<void> {
    this.loading?.abort();
    const loading = new AbortController();
    this.loading = loading;
    this.element.setAttribute("aria-busy", "true");
    try {
      const listing = await this.api.list(path, loading.signal);
      if (this.loading !== loading) return;
      this.path = path;
      this.show(listing);
    } catch (e) {
      if (isAbort(e) || this.loading !== loading) return;
      this.note.textContent = this.failureWords(e);
      if (path !== this.path) return; // keep showing where we were
      this.list.replaceChildren();
      this.renderCrumbs();
    } finally {
      if (this.loading === loading) {
        this.loading = null;
        this.element.removeAttribute("aria-busy");
      }
    }
  }

  // Loads the folder again shortly (uploads landing in it); several calls
  // close together make one request.
  refreshSoon(): void {
    window.clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => void this.load(this.path), 400);
  }

  // The downloads are off on this server: say so instead of listing.
  setOff(words: string): void {
    this.loading?.abort();
    this.list.replaceChildren();
    this.crumbs.replaceChildren();
    this.note.textContent = words;
  }

  private failureWords(e: unknown): string {
    const t = asTransferError(e);
    if (t?.status === 403) return "This server does not let you browse its files.";
    if (t?.status === 404) return "That folder is no longer there.";
    return t ? t.message : `Could not list the folder: ${String(e)}`;
  }

  private show(l: Listing): void {
    // A folder opened from the keyboard keeps the keyboard in the browser.
    const hadFocus = this.element.contains(document.activeElement);
    this.renderCrumbs();
    const dirs = l.entries.filter((e) => e.type === "dir");
    const rest = l.entries.filter((e) => e.type !== "dir");
    this.list.replaceChildren(...[...dirs, ...rest].map((e) => this.row(e)));
    const notes: string[] = [];
    if (l.entries.length === 0) notes.push("This folder is empty.");
    if (l.truncated) notes.push(`Only the first ${l.entries.length} entries are shown.`);
    this.note.textContent = notes.join(" ");
    if (hadFocus && !this.element.contains(document.activeElement)) {
      this.crumbs.querySelector<HTMLElement>("[aria-current]")?.focus();
    }
  }

  private renderCrumbs(): void {
    const parts = this.path === "" ? [] : this.path.split("/");
    const items: HTMLElement[] = [];
    const crumb = (label: string, target: string, current: boolean) => {
      const b = button("", label, () => void this.load(target));
      b.className = "crumb";
      if (current) b.setAttribute("aria-current", "location");
      return b;
    };
    items.push(crumb("Files", "", parts.length === 0));
    parts.forEach((name, i) => {
      items.push(el("span", { className: "crumb-sep", text: "/" }));
      items.push(crumb(name, parts.slice(0, i + 1).join("/"), i === parts.length - 1));
    });
    this.crumbs.replaceChildren(...items);
  }

  private row(e: ListEntry): HTMLLIElement {
    const path = this.path === "" ? e.name : `${this.path}/${e.name}`;
    const li = el("li", { className: `entry ${e.type}` });
    li.dataset.name = e.name;
    li.dataset.type = e.type;
    li.appendChild(icon(e.type === "dir" ? "files" : "file"));
    const main = li.appendChild(el("div", { className: "entry-main" }));
    if (e.type === "dir") {
      const open = main.appendChild(button("", e.name, () => void this.load(path)));
      open.className = "entry-name link";
      open.setAttribute("aria-label", `Open the folder ${e.name}`);
    } else {
      main.appendChild(el("span", { className: "entry-name", text: e.name }));
    }
    const meta: string[] = [];
    if (e.type === "file") meta.push(humanBytes(e.size));
    if (e.type === "dir") meta.push("folder");
    if (e.modified > 0) meta.push(DATE.format(new Date(e.modified)));
    main.appendChild(el("span", { className: "entry-meta", text: meta.join(" · ") }));
    if (e.type !== "other") {
      const a = li.appendChild(el("a", { className: "download" }));
      a.href = downloadHref(path);
      a.download = "";
      a.appendChild(icon("download"));
      a.append(e.type === "dir" ? "zip" : "");
      a.setAttribute("aria-label", e.type === "dir" ? `Download the folder ${e.name} as a zip` : `Download ${e.name}`);
      a.title = e.type === "dir" ? "Download as a zip" : "Download";
    }
    return li;
  }
}
