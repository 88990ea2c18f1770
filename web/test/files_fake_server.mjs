// An in-memory stand-in for the server's /files upload endpoints, spoken to
// through a fetch-shaped function, for the Files panel's unit tests. It
// follows the contract: POST creates, PUT appends at the confirmed offset
// only, GET tells the offset, DELETE drops. `fault(request)` may return
// "network" (fetch rejects), "network-after" (the server takes the request,
// then the answer is lost) or a Response, to inject failures.

export function fakeFilesServer({ chunkBytes = 4, maxBytes = 0, taken = [], fault = () => null } = {}) {
  const uploads = new Map();
  const saved = new Map(); // name -> Uint8Array
  const requests = [];
  let nextId = 1;
  for (const name of taken) saved.set(name, new Uint8Array());

  const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

  function freeName(path) {
    if (!saved.has(path)) return path;
    const slash = path.lastIndexOf("/");
    const dir = path.slice(0, slash + 1);
    const base = path.slice(slash + 1);
    const dot = base.lastIndexOf(".");
    const stem = dot > 0 ? base.slice(0, dot) : base;
    const ext = dot > 0 ? base.slice(dot) : "";
    for (let n = 1; ; n++) {
      const c = `${dir}${stem} (${n})${ext}`;
      if (!saved.has(c)) return c;
    }
  }

  async function handle(url, init) {
    const u = new URL(url);
    const method = init.method ?? "GET";
    if (!u.pathname.endsWith("/files/upload")) return json(404, { error: "no such endpoint" });
    const id = u.searchParams.get("id");
    if (method === "POST") {
      const { path, size } = JSON.parse(init.body);
      if (typeof path !== "string" || path === "" || path.split("/").some((c) => c === "" || c === "." || c === "..")) {
        return json(400, { error: "the name is not allowed", parameter: "path" });
      }
      if (maxBytes > 0 && size > maxBytes) return json(413, { error: `larger than the limit of ${maxBytes} bytes` });
      const newId = String(nextId++).padStart(32, "0");
      uploads.set(newId, { path, size, bytes: [] , offset: 0 });
      return json(201, { id: newId, offset: 0, size });
    }
    const up = uploads.get(id);
    if (!up) return json(404, { error: "unknown or expired upload" });
    if (method === "GET") return json(200, { offset: up.offset, size: up.size, done: false });
    if (method === "DELETE") {
      uploads.delete(id);
      return new Response(null, { status: 204 });
    }
    if (method === "PUT") {
      const offset = Number(u.searchParams.get("offset"));
      const body = new Uint8Array(await init.body.arrayBuffer());
      if (offset !== up.offset) return json(409, { error: "not the confirmed offset", offset: up.offset });
      if (body.length > chunkBytes) return json(413, { error: "chunk over the chunk size" });
      up.bytes.push(body);
      up.offset += body.length;
      if (up.offset > up.size) return json(400, { error: "more bytes than announced" });
      if (up.offset < up.size) return json(200, { offset: up.offset, size: up.size, done: false });
      uploads.delete(id);
      const name = freeName(up.path);
      const all = new Uint8Array(up.size);
      let at = 0;
      for (const b of up.bytes) {
        all.set(b, at);
        at += b.length;
      }
      saved.set(name, all);
      return json(200, { offset: up.size, size: up.size, done: true, name, renamed: name !== up.path });
    }
    return json(405, { error: "method not allowed" });
  }

  async function fetchFn(url, init = {}) {
    const req = { url, method: init.method ?? "GET", init };
    requests.push(req);
    if (init.signal?.aborted) throw new DOMException("aborted", "AbortError");
    const f = await fault(req);
    if (f === "network") throw new TypeError("Failed to fetch");
    if (f instanceof Response) return f;
    const res = await handle(url, init);
    if (f === "network-after") throw new TypeError("Failed to fetch");
    return res;
  }

  return { fetch: fetchFn, uploads, saved, requests };
}

// A Blob that records the largest slice anyone read from it.
export function watchedBlob(bytes) {
  const blob = new Blob([bytes]);
  const watch = { largestSlice: 0, slices: 0 };
  return {
    watch,
    blob: {
      size: blob.size,
      slice(a, b) {
        watch.slices++;
        watch.largestSlice = Math.max(watch.largestSlice, b - a);
        return blob.slice(a, b);
      },
    },
  };
}

export function bytesOf(n, seed = 1) {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
