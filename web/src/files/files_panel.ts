// The Files panel: a dialog beside the picture (a bottom sheet on a phone)
// opened from the control panel's Files button, with uploads (pickers for
// files and for a folder, drops anywhere on the page, the transfer list)
// and a browser of the server's files root with download links. Escape or
// the close button closes it and gives the keyboard back to the picture;
// Tab goes round its controls; keys typed in it never reach the desktop.
// Main thread.

import { icon } from "../panel/icons";
import { button, el, section, wrapTab } from "../panel/dom";
import { DropZone, type DropMode } from "./drop_zone";
import { gatherDrop, gatherInput, type DropParts, type Gathered } from "./entry_walker";
import { FilesApi, type FilesConfig } from "./files_api";
import { FileBrowser } from "./file_browser";
import { humanBytes } from "./human_units";
import { asTransferError } from "./transfer_errors";
import { TransferList } from "./transfer_list";
import { UploadQueue } from "./upload_queue";

export interface FilesHost {
  focusPicture(): void;
}

export class FilesPanel {
  readonly element: HTMLElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly api = new FilesApi((url, init) => window.fetch(url, init), document.baseURI);
  private readonly queue = new UploadQueue({ server: this.api, now: () => performance.now() });
  private readonly browser = new FileBrowser(this.api);
  private readonly transfers = new TransferList(this.queue);
  private readonly uploadNote: HTMLParagraphElement;
  private readonly uploadProblems: HTMLParagraphElement;
  private readonly pickers: HTMLDivElement;
  private offered = false;
  private config: FilesConfig | null = null;
  private configLoad: Promise<FilesConfig | null> | null = null;

  constructor(parent: HTMLElement, private readonly host: FilesHost) {
    this.element = parent.appendChild(el("aside", { id: "files" }));
    this.element.setAttribute("role", "dialog");
    this.element.setAttribute("aria-label", "Files");
    this.element.hidden = true;

    const header = this.element.appendChild(el("header"));
    const h1 = header.appendChild(el("h1"));
    h1.append(icon("files"), "Files");
    this.closeButton = header.appendChild(button("files-close", "", () => this.close()));
    this.closeButton.setAttribute("aria-label", "Close the Files panel");
    this.closeButton.title = "Close (Esc)";
    this.closeButton.appendChild(icon("close"));

    const upload = this.element.appendChild(section("files-upload", "Upload", "upload"));
    this.uploadNote = upload.appendChild(el("p", { id: "files-upload-note", className: "note" }));
    this.pickers = upload.appendChild(el("div", { className: "row" }));
    const fileInput = this.picker("files-input", false);
    const folderInput = this.picker("files-folder-input", true);
    this.pickers.append(
      button("files-pick", "Files…", () => fileInput.click(), "upload"),
      button("files-pick-folder", "Folder…", () => folderInput.click(), "folderUpload"),
      fileInput,
      folderInput,
    );
    this.uploadProblems = upload.appendChild(el("p", { id: "files-upload-problems", className: "note" }));
    this.uploadProblems.setAttribute("role", "status");
    upload.appendChild(this.transfers.element);
    this.element.appendChild(this.browser.element);

    this.queue.onChange = () => this.transfers.update();
    this.queue.onSaved = () => this.browser.refreshSoon();
    new DropZone(parent, {
      mode: () => this.dropMode(),
      hint: (mode) => this.dropHint(mode),
      dropped: (parts) => void this.takeDrop(parts),
    });
    this.listen();
    this.showConfig();
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  // Whether the server offers file transfer (hello's "files").
  setOffered(on: boolean): void {
    this.offered = on;
    this.config = null;
    this.configLoad = null;
    if (!on && this.isOpen) this.close();
  }

  // Opens the panel, loads what the server allows and lists the folder;
  // with `focus`, the keyboard moves into it.
  open(focus = true): void {
    if (!this.offered) return;
    const wasOpen = this.isOpen;
    this.element.hidden = false;
    if (focus) this.closeButton.focus();
    if (wasOpen) return;
    this.config = null;
    this.configLoad = null;
    void this.loadConfig().then((c) => {
      if (!c) return;
      if (c.download) void this.browser.load(this.browser.currentPath);
      else this.browser.setOff("This server does not let you browse or download its files.");
    });
  }

  close(): void {
    if (!this.isOpen) return;
    const hadFocus = this.element.contains(document.activeElement);
    this.element.hidden = true;
    if (hadFocus || document.activeElement === document.body) this.host.focusPicture();
  }

  private picker(id: string, folder: boolean): HTMLInputElement {
    const input = el("input", { id });
    input.type = "file";
    input.multiple = true;
    input.hidden = true;
    input.tabIndex = -1;
    if (folder) input.webkitdirectory = true;
    input.addEventListener("change", () => {
      if (!input.files) return;
      const g = gatherInput(input.files);
      input.value = "";
      void this.enqueue(g);
    });
    return input;
  }

  private async loadConfig(): Promise<FilesConfig | null> {
    if (this.config) return this.config;
    this.configLoad ??= this.api.config().then(
      (c) => {
        this.config = c;
        this.queue.setLimits(c.chunkBytes, c.maxUploadBytes);
        this.showConfig();
        return c;
      },
      (e: unknown) => {
        this.configLoad = null;
        const words = asTransferError(e)?.message ?? String(e);
        this.uploadNote.textContent = `The server did not say what it allows: ${words}`;
        this.browser.setOff("");
        return null;
      },
    );
    return this.configLoad;
  }

  private showConfig(): void {
    const c = this.config;
    this.pickers.hidden = !c?.upload;
    if (!c) {
      this.uploadNote.textContent = "Asking the server…";
      return;
    }
    if (!c.upload) {
      this.uploadNote.textContent = "This server takes no uploads.";
      return;
    }
    const where = c.uploadDir === "" ? "the files root" : `${c.uploadDir}/`;
    const limit = c.maxUploadBytes > 0 ? ` Up to ${humanBytes(c.maxUploadBytes)} a file.` : "";
    this.uploadNote.textContent = `Uploads go to ${where}.${limit} Drop files or folders anywhere on the page.`;
  }

  private dropMode(): DropMode {
    if (!this.offered) return "off";
    return this.config && !this.config.upload ? "refused" : "upload";
  }

  private dropHint(mode: DropMode): string {
    if (mode === "refused") return "This server takes no uploads";
    const dir = this.config?.uploadDir;
    return dir ? `Drop to upload to ${dir}/` : "Drop to upload";
  }

  private async takeDrop(parts: DropParts): Promise<void> {
    this.open(false);
    this.say("Reading what was dropped…", false);
    let g: Gathered;
    try {
      g = await gatherDrop(parts);
    } catch (e) {
      this.say(`Could not read what was dropped: ${String(e)}`, true);
      return;
    }
    await this.enqueue(g);
  }

  private async enqueue(g: Gathered): Promise<void> {
    const problems = [...g.problems];
    const c = await this.loadConfig();
    if (!c) {
      this.say("Nothing was sent: the server did not say what it allows.", true);
      return;
    }
    if (!c.upload) {
      this.say("Nothing was sent: this server takes no uploads.", true);
      return;
    }
    if (g.files.length === 0 && problems.length === 0) problems.push("There were no files in it (empty folders are not sent).");
    const taken = this.queue.add(g.files);
    if (taken < g.files.length) problems.push(`${g.files.length - taken} files were left out: too many are waiting.`);
    this.say(problems.join(" "), true);
  }

  // A line under the pickers: what is going on, or what went wrong.
  private say(words: string, problem: boolean): void {
    this.uploadProblems.textContent = words;
    this.uploadProblems.classList.toggle("error", problem);
  }

  private listen(): void {
    this.element.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") {
        e.preventDefault();
        this.close();
      } else if (e.key === "Tab") {
        wrapTab(this.element, e);
      }
    });
    this.element.addEventListener("keyup", (e) => e.stopPropagation());
  }

}
