// One file's upload: POST files/upload, then PUT its bytes in chunks of the
// server's chunk size, one at a time and in order, each read with
// Blob.slice so the file is never whole in memory. After a network failure
// or a 5xx it waits (longer each time), asks the server how much it has
// (GET files/upload?id=) and carries on from there, a few times at most; a
// 409 says where the server is, and the upload carries on from that. The
// clock and the pause are injected, for tests.

import type { UploadServer } from "./files_api";
import { isAbort } from "./files_api";
import { asTransferError, badReply, TransferError } from "./transfer_errors";

export const RETRIES = 5;

// 1 s, 2 s, 4 s, 8 s, then 15 s.
export function backoffMs(attempt: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

export interface UploadOptions {
  server: UploadServer;
  chunkBytes: number;
  signal: AbortSignal;
  // The bytes the server has confirmed so far.
  onProgress(sent: number): void;
  // The server's id for this upload, once it has one (for a cancel).
  onId?(id: string): void;
  // A failure that will be tried again, with the attempt's number.
  onRetry?(error: TransferError, attempt: number): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  retries?: number;
}

export interface UploadResult {
  name: string; // where the server put it, relative to the upload folder
  renamed: boolean;
}

// Conflicts in a row without progress before the upload gives up.
const MAX_CONFLICTS = 3;

export async function uploadFile(file: Blob, path: string, o: UploadOptions): Promise<UploadResult> {
  const sleep = o.sleep ?? pause;
  const retries = o.retries ?? RETRIES;
  const size = file.size;
  let id: string | null = null;
  let offset = 0;
  let resync = false;
  let failures = 0;
  let conflicts = 0;
  // The end of the last chunk sent: when that was the file's end and the
  // answer got lost, the server may have finished the file and let go of
  // the id.
  let lastEnd = -1;

  for (;;) {
    o.signal.throwIfAborted();
    try {
      if (id === null) {
        const made = await o.server.create(path, size, o.signal);
        id = made.id;
        o.onId?.(id);
        offset = made.offset;
        o.onProgress(offset);
      } else if (resync) {
        const state = await o.server.status(id, o.signal).catch((e: unknown) => {
          if (asTransferError(e)?.status === 404 && lastEnd === size) {
            throw new TransferError(
              "expired",
              "The answer to the last chunk was lost: the file is probably complete on the server; check the folder",
              404,
            );
          }
          throw e;
        });
        offset = state.offset;
        resync = false;
        o.onProgress(offset);
      }
      if (offset > size) throw badReply(`the server holds ${offset} bytes of a ${size}-byte file`);
      const end = Math.min(size, offset + o.chunkBytes);
      lastEnd = end;
      const reply = await o.server.put(id, offset, file.slice(offset, end), o.signal);
      if (reply.done) {
        o.onProgress(size);
        return { name: reply.name ?? path, renamed: reply.renamed };
      }
      if (reply.offset <= offset || reply.offset > size) {
        throw badReply(`a chunk moved the upload from ${offset} to ${reply.offset} bytes of ${size}`);
      }
      offset = reply.offset;
      failures = 0;
      conflicts = 0;
      o.onProgress(offset);
    } catch (caught) {
      if (isAbort(caught) || o.signal.aborted) throw caught;
      const e = asTransferError(caught);
      if (!e) throw caught;
      if (e.status === 409 && e.offset !== null && ++conflicts <= MAX_CONFLICTS) {
        // The server says where it is: carry on from there.
        offset = e.offset;
        o.onProgress(offset);
        continue;
      }
      if (!e.retryable || ++failures > retries) throw e;
      o.onRetry?.(e, failures);
      await sleep(backoffMs(failures), o.signal);
      // Whatever the last chunk did, the server knows how much it kept.
      if (id !== null) resync = true;
    }
  }
}

// setTimeout as a promise that an abort ends early (with the abort).
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
