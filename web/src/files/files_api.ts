// The server's /files endpoints (see the contract in the server's files
// module) as typed calls over fetch. Every URL is relative ("files/list?..."
// resolved against the page's base), so the page works behind a reverse
// proxy at a sub-path. Failures come out as TransferError with words for a
// person; an abort stays an AbortError. fetch is injected, for tests.

import { badReply, httpFailure, networkFailure, TransferError } from "./transfer_errors";

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export interface FilesConfig {
  upload: boolean;
  download: boolean;
  uploadDir: string;
  maxUploadBytes: number; // 0: no limit
  chunkBytes: number;
}

export interface ListEntry {
  name: string;
  type: "dir" | "file" | "other";
  size: number;
  modified: number; // ms since 1970
}

export interface Listing {
  path: string;
  entries: ListEntry[];
  truncated: boolean;
}

export interface UploadState {
  id: string;
  offset: number;
  size: number;
}

export interface ChunkReply {
  offset: number;
  size: number;
  done: boolean;
  name: string | null; // set when done
  renamed: boolean;
}

// What an upload needs of the server; FilesApi is one, tests bring others.
export interface UploadServer {
  create(path: string, size: number, signal?: AbortSignal): Promise<UploadState>;
  put(id: string, offset: number, body: Blob, signal?: AbortSignal): Promise<ChunkReply>;
  status(id: string, signal?: AbortSignal): Promise<{ offset: number; size: number; done: boolean }>;
  cancel(id: string): Promise<void>;
}

// The query value for a path: components joined by "/", percent-encoded.
export function pathQuery(path: string): string {
  return encodeURIComponent(path);
}

// The link that downloads a file, or a folder as a zip.
export function downloadHref(path: string): string {
  return `files/download?path=${pathQuery(path)}`;
}

export class FilesApi implements UploadServer {
  constructor(
    private readonly fetchFn: FetchLike,
    private readonly base: string,
  ) {}

  async config(): Promise<FilesConfig> {
    const j = await this.json("files", {});
    const chunk = num(j.chunk_bytes);
    if (chunk === null || chunk <= 0) throw badReply("no chunk size");
    return {
      upload: j.upload === true,
      download: j.download === true,
      uploadDir: typeof j.upload_dir === "string" ? j.upload_dir : "",
      maxUploadBytes: num(j.max_upload_bytes) ?? 0,
      chunkBytes: chunk,
    };
  }

  async list(path: string, signal?: AbortSignal): Promise<Listing> {
    const j = await this.json(`files/list?path=${pathQuery(path)}`, { signal });
    if (!Array.isArray(j.entries)) throw badReply("a listing without entries");
    const entries: ListEntry[] = [];
    for (const e of j.entries as unknown[]) {
      if (typeof e !== "object" || e === null) continue;
      const r = e as Record<string, unknown>;
      if (typeof r.name !== "string" || r.name === "") continue;
      const type = r.type === "dir" || r.type === "file" ? r.type : "other";
      entries.push({ name: r.name, type, size: num(r.size) ?? 0, modified: num(r.modified) ?? 0 });
    }
    return { path: typeof j.path === "string" ? j.path : path, entries, truncated: j.truncated === true };
  }

  async create(path: string, size: number, signal?: AbortSignal): Promise<UploadState> {
    const j = await this.json("files/upload", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path, size }),
      signal,
    });
    const offset = num(j.offset);
    if (typeof j.id !== "string" || j.id === "" || offset === null) throw badReply("an upload without an id");
    return { id: j.id, offset, size: num(j.size) ?? size };
  }

  async put(id: string, offset: number, body: Blob, signal?: AbortSignal): Promise<ChunkReply> {
    const j = await this.json(`files/upload?id=${encodeURIComponent(id)}&offset=${offset}`, {
      method: "PUT",
      headers: { "Content-Type": "application/octet-stream" },
      body,
      signal,
    });
    const got = num(j.offset);
    if (got === null) throw badReply("a chunk's answer without an offset");
    return {
      offset: got,
      size: num(j.size) ?? 0,
      done: j.done === true,
      name: typeof j.name === "string" ? j.name : null,
      renamed: j.renamed === true,
    };
  }

  async status(id: string, signal?: AbortSignal): Promise<{ offset: number; size: number; done: boolean }> {
    const j = await this.json(`files/upload?id=${encodeURIComponent(id)}`, { signal });
    const offset = num(j.offset);
    if (offset === null) throw badReply("an upload's state without an offset");
    return { offset, size: num(j.size) ?? 0, done: j.done === true };
  }

  async cancel(id: string): Promise<void> {
    await this.send(`files/upload?id=${encodeURIComponent(id)}`, { method: "DELETE" });
  }

  // The answer's JSON object; a failure's words in a TransferError.
  private async json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    const res = await this.send(url, init);
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if (isAbort(e) || init.signal?.aborted) throw e;
      throw networkFailure(e instanceof Error ? e.message : String(e));
    }
    try {
      const j: unknown = JSON.parse(text);
      if (typeof j === "object" && j !== null && !Array.isArray(j)) return j as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw badReply(`HTTP ${res.status} without JSON`);
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchFn(new URL(url, this.base).href, { credentials: "same-origin", ...init });
    } catch (e) {
      if (isAbort(e) || init.signal?.aborted) throw e;
      throw networkFailure(e instanceof Error ? e.message : String(e));
    }
    if (res.ok) return res;
    let words: string | null = null;
    let offset: number | null = null;
    try {
      const j: unknown = JSON.parse(await res.text());
      if (typeof j === "object" && j !== null) {
        const r = j as Record<string, unknown>;
        if (typeof r.error === "string") words = r.error;
        offset = num(r.offset);
      }
    } catch {
      // No JSON: the status alone speaks.
    }
    throw httpFailure(res.status, words, offset);
  }
}

export function isAbort(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "AbortError";
}

export { TransferError };

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
}
