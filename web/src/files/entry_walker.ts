// What the viewer picked or dropped, as files with the path each keeps
// below the upload folder ("photos/2024/a.jpg"). Dropped folders are walked
// through the standard entry interfaces (DataTransferItem.webkitGetAsEntry,
// FileSystemDirectoryReader, which hands out its entries in batches until
// an empty one). Coded against those interfaces alone, so anything shaped
// like them (a test's stand-ins) walks the same. No DOM beyond them.

import type { QueueFile } from "./upload_queue";

export const MAX_FILES = 10_000;

export interface Gathered {
  files: QueueFile[];
  problems: string[]; // in words: what could not be read, what was left out
}

// The parts of a drop to walk, taken at once: the browser empties a
// DataTransfer when its event handler returns.
export interface DropParts {
  entries: FileSystemEntry[];
  loose: File[]; // files the browser gave no entry for
}

// Whether a drag carries files (not text or a link).
export function carriesFiles(dt: DataTransfer | null): boolean {
  if (!dt) return false;
  const types = dt.types;
  for (let i = 0; i < types.length; i++) if (types[i] === "Files") return true;
  return false;
}

export function dropParts(dt: DataTransfer): DropParts {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  const items = dt.items;
  if (items && items.length > 0) {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!item || item.kind !== "file") continue;
      const entry = typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null;
      if (entry) {
        entries.push(entry);
      } else {
        const f = item.getAsFile();
        if (f) loose.push(f);
      }
    }
    return { entries, loose };
  }
  // No item list at all (older browsers): the plain file list.
  for (let i = 0; i < dt.files.length; i++) loose.push(dt.files[i]!);
  return { entries, loose };
}

// Every file under the dropped entries, folders walked depth first in the
// order the browser lists them; loose files by their names.
export async function gatherDrop(parts: DropParts, max = MAX_FILES): Promise<Gathered> {
  const out: Gathered = { files: [], problems: [] };
  for (const f of parts.loose) add(out, f, f.name, max);
  for (const e of parts.entries) await walk(e, "", out, max);
  return out;
}

// The files of an <input type=file>: with webkitdirectory each carries its
// path below the picked folder's parent ("photos/2024/a.jpg").
export function gatherInput(list: FileList, max = MAX_FILES): Gathered {
  const out: Gathered = { files: [], problems: [] };
  for (let i = 0; i < list.length; i++) {
    const f = list[i]!;
    add(out, f, f.webkitRelativePath || f.name, max);
  }
  return out;
}

function add(out: Gathered, file: File, path: string, max: number): void {
  if (out.files.length >= max) noteCut(out, max);
  else out.files.push({ file, path });
}

function noteCut(out: Gathered, max: number): void {
  const note = `Only the first ${max} files were taken`;
  if (!out.problems.includes(note)) out.problems.push(note);
}

async function walk(entry: FileSystemEntry, parent: string, out: Gathered, max: number): Promise<void> {
  if (out.files.length >= max) {
    noteCut(out, max);
    return;
  }
  const path = parent === "" ? entry.name : `${parent}/${entry.name}`;
  if (entry.isFile) {
    try {
      add(out, await fileOf(entry as FileSystemFileEntry), path, max);
    } catch (e) {
      out.problems.push(`Could not read ${path}: ${reason(e)}`);
    }
  } else if (entry.isDirectory) {
    let children: FileSystemEntry[];
    try {
      children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    } catch (e) {
      out.problems.push(`Could not read the folder ${path}: ${reason(e)}`);
      return;
    }
    for (const c of children) await walk(c, path, out, max);
  }
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

// readEntries hands out a batch per call; an empty batch is the end.
async function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    for (const e of batch) all.push(e);
    if (all.length > MAX_FILES * 2) return all; // the caller stops at its limit
  }
}

function reason(e: unknown): string {
  if (e instanceof Error || (typeof e === "object" && e !== null && "message" in e)) {
    const m = String((e as { message: unknown }).message);
    if (m) return m;
  }
  return "the browser refused";
}
