// The Files panel's entry point: a button shown only when the server's hello
// says files:true. What it opens belongs to file transfer; here it raises
// a "voxl-files" event on the window for that part to answer.

import { button } from "./dom";

export class FilesEntry {
  readonly element: HTMLButtonElement;

  constructor() {
    this.element = button("panel-files", "Files", () => window.dispatchEvent(new CustomEvent("voxl-files")), "files");
    this.element.hidden = true;
  }

  setOffered(on: boolean): void {
    this.element.hidden = !on;
  }
}
