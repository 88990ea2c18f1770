// The uploads the viewer asked for, sent one file at a time in the order
// they came (chunked_upload.ts does one file). Keeps each file's state,
// bytes, rate and time left for the transfer list, and the totals over all
// of them. Memory stays bounded: only one chunk is read at a time, a
// finished file's data is let go, and only the latest finished entries are
// kept. No DOM; the clock is injected.

import { uploadFile, type UploadOptions } from "./chunked_upload";
import { isAbort, type UploadServer } from "./files_api";
import { percentOf } from "./human_units";
import { RateMeter } from "./transfer_rate";
import { asTransferError, tooBigHere } from "./transfer_errors";

export type ItemState = "queued" | "sending" | "done" | "failed" | "cancelled";

export interface QueueFile {
  file: Blob;
  path: string; // relative to the upload folder: "photos/2024/a.jpg"
}

export interface TransferItem {
  readonly key: number;
  readonly path: string;
  readonly size: number;
  state: ItemState;
  sent: number;
  // Why it failed, or while sending, the retry under way.
  message: string | null;
  savedAs: string | null; // the server's name, once done
  renamed: boolean;
}

export interface Totals {
  sent: number;
  total: number;
  percent: number;
  rate: number | null; // bytes per second
  secondsLeft: number | null;
  waiting: number; // files queued or sending
}

export const MAX_WAITING = 10_000;
export const MAX_FINISHED_KEPT = 200;

export interface QueueOptions {
  server: UploadServer;
  now(): number;
  sleep?: UploadOptions["sleep"];
  retries?: number;
}

function finished(s: ItemState): boolean {
  return s === "done" || s === "failed" || s === "cancelled";
}

export class UploadQueue {
  // Called after any change, and once per confirmed chunk.
  onChange: () => void = () => {};
  // Called when a file has been saved.
  onSaved: (item: TransferItem) => void = () => {};

  private list: TransferItem[] = [];
  private readonly data = new Map<number, Blob>();
  private nextKey = 1;
  private chunkBytes = 0;
  private maxBytes = 0;
  private running = false;
  private current: { item: TransferItem; controller: AbortController; id: string | null } | null = null;
  private readonly itemMeter = new RateMeter();
  private readonly allMeter = new RateMeter();
  private confirmed = 0; // bytes the server confirmed since the page loaded

  constructor(private readonly o: QueueOptions) {}

  // The server's chunk size and its largest upload (0: no limit).
  setLimits(chunkBytes: number, maxUploadBytes: number): void {
    this.chunkBytes = chunkBytes;
    this.maxBytes = maxUploadBytes;
  }

  get items(): readonly TransferItem[] {
    return this.list;
  }

  // Queues `files`; returns how many it took (beyond MAX_WAITING waiting
  // files the rest are refused). A file over the limit is listed as failed
  // at once, with nothing sent.
  add(files: QueueFile[]): number {
    let waiting = this.list.filter((i) => !finished(i.state)).length;
    let taken = 0;
    for (const f of files) {
      if (waiting >= MAX_WAITING) break;
      const item: TransferItem = {
        key: this.nextKey++,
        path: f.path,
        size: f.file.size,
        state: "queued",
        sent: 0,
        message: null,
        savedAs: null,
        renamed: false,
      };
      if (this.maxBytes > 0 && item.size > this.maxBytes) {
        item.state = "failed";
        item.message = tooBigHere(item.size, this.maxBytes).message;
      } else {
        this.data.set(item.key, f.file);
        waiting++;
      }
      this.list.push(item);
      taken++;
    }
    this.trim();
    this.onChange();
    void this.run();
    return taken;
  }

  // Stops a file: a queued one is not sent; the one being sent is aborted
  // and the server told to drop what it has.
  cancel(key: number): void {
    const item = this.list.find((i) => i.key === key);
    if (!item || finished(item.state)) return;
    if (this.current?.item === item) {
      this.current.controller.abort();
      return; // run() marks it and tells the server
    }
    item.state = "cancelled";
    this.data.delete(key);
    this.onChange();
  }

  cancelAll(): void {
    for (const i of this.list) if (!finished(i.state) && this.current?.item !== i) this.cancel(i.key);
    if (this.current) this.cancel(this.current.item.key);
  }

  // Forgets the finished entries.
  clearFinished(): void {
    this.list = this.list.filter((i) => !finished(i.state));
    this.onChange();
  }

  // The file being sent's rate and time left.
  rateOf(item: TransferItem): number | null {
    return this.current?.item === item ? this.itemMeter.rate(this.o.now()) : null;
  }

  secondsLeftOf(item: TransferItem): number | null {
    return this.current?.item === item ? this.itemMeter.secondsLeft(this.o.now(), item.size - item.sent) : null;
  }

  // Over every listed file that did not fail or get cancelled.
  totals(): Totals {
    let sent = 0;
    let total = 0;
    let waiting = 0;
    for (const i of this.list) {
      if (i.state === "failed" || i.state === "cancelled") continue;
      total += i.size;
      sent += i.state === "done" ? i.size : i.sent;
      if (i.state !== "done") waiting++;
    }
    const now = this.o.now();
    const rate = waiting > 0 ? this.allMeter.rate(now) : null;
    return {
      sent,
      total,
      percent: percentOf(sent, total),
      rate,
      secondsLeft: waiting > 0 ? this.allMeter.secondsLeft(now, total - sent) : 0,
      waiting,
    };
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const item = this.list.find((i) => i.state === "queued");
        if (!item) break;
        await this.send(item);
        this.trim();
        this.onChange();
      }
    } finally {
      this.running = false;
      this.allMeter.reset();
    }
  }

  private async send(item: TransferItem): Promise<void> {
    const file = this.data.get(item.key);
    if (!file) {
      item.state = "failed";
      item.message = "The file is no longer there";
      return;
    }
    const controller = new AbortController();
    const current: { item: TransferItem; controller: AbortController; id: string | null } = { item, controller, id: null };
    this.current = current;
    item.state = "sending";
    this.itemMeter.reset();
    this.itemMeter.add(this.o.now(), 0);
    this.allMeter.add(this.o.now(), this.confirmed);
    this.onChange();
    try {
      const result = await uploadFile(file, item.path, {
        server: this.o.server,
        chunkBytes: this.chunkBytes > 0 ? this.chunkBytes : 1 << 20,
        signal: controller.signal,
        sleep: this.o.sleep,
        retries: this.o.retries,
        onId: (id) => (current.id = id),
        onProgress: (sent) => {
          const now = this.o.now();
          this.confirmed += Math.max(0, sent - item.sent);
          item.sent = sent;
          item.message = null;
          this.itemMeter.add(now, sent);
          this.allMeter.add(now, this.confirmed);
          this.onChange();
        },
        onRetry: (e, attempt) => {
          item.message = `${e.message}; trying again (${attempt})`;
          this.onChange();
        },
      });
      item.state = "done";
      item.sent = item.size;
      item.savedAs = result.name;
      item.renamed = result.renamed;
      item.message = null;
      this.onSaved(item);
    } catch (e) {
      if (isAbort(e) || controller.signal.aborted) {
        item.state = "cancelled";
        item.message = null;
        // The server drops the partial file; it would expire anyway.
        if (current.id !== null) void this.o.server.cancel(current.id).catch(() => {});
      } else {
        item.state = "failed";
        item.message = asTransferError(e)?.message ?? `Failed: ${String(e)}`;
      }
    } finally {
      this.data.delete(item.key);
      this.current = null;
    }
  }

  // Only the latest MAX_FINISHED_KEPT finished entries stay listed.
  private trim(): void {
    let extra = this.list.filter((i) => finished(i.state)).length - MAX_FINISHED_KEPT;
    if (extra <= 0) return;
    this.list = this.list.filter((i) => !(finished(i.state) && extra-- > 0));
  }
}
