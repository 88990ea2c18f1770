// The Files panel as a test drives it: deterministic file contents, opening
// the panel, a drop of files and folders made in the page, and the transfer
// rows. Shared by the Linux e2e test and voxl.exe's under Wine.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { promisify } from "node:util";

import * as e2e from "./support.mjs";

// Deterministic bytes that differ from file to file.
export function bytes(n, seed) {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

export const sha256 = (b) => crypto.createHash("sha256").update(b).digest("hex");

export async function fileSha(p) {
  return sha256(await fs.promises.readFile(p));
}

export async function openFiles(p) {
  if (await p.evaluate(() => !document.getElementById("files").hidden)) return;
  if (!(await p.evaluate(() => window.voxl.panel().open))) await p.click("#panel-toggle");
  await p.click("#panel-files");
  await e2e.waitInPage(p, () => !document.getElementById("files").hidden, null, { what: "the Files panel open" });
}

// Drops `tree` on the element `selector` as a real drag would deliver it:
// dragenter, dragover, then drop, each carrying an object shaped like a
// DataTransfer whose items give entries (files with their bytes, folders
// whose readers hand out one entry per call, then an empty batch).
// Returns what the page saw: whether the hint showed and the drop was
// cancelled.
export async function dropTree(p, tree, selector = "#screen") {
  const spec = tree.map(function toSpec(n) {
    return n.children ? { name: n.name, children: n.children.map(toSpec) } : { name: n.name, b64: n.data.toString("base64") };
  });
  return p.evaluate(
    ({ spec, selector }) => {
      const decode = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const entry = (n, parent) => {
        const fullPath = `${parent}/${n.name}`;
        if (!n.children) {
          const file = new File([decode(n.b64)], n.name);
          return { isFile: true, isDirectory: false, name: n.name, fullPath, file: (ok) => setTimeout(() => ok(file), 0) };
        }
        const kids = n.children.map((c) => entry(c, fullPath));
        return {
          isFile: false,
          isDirectory: true,
          name: n.name,
          fullPath,
          createReader() {
            let at = 0;
            return {
              readEntries(ok) {
                const batch = kids.slice(at, at + 1);
                at += batch.length;
                setTimeout(() => ok(batch), 0);
              },
            };
          },
        };
      };
      const entries = spec.map((n) => entry(n, ""));
      const dt = {
        types: ["Files"],
        items: entries.map((e) => ({ kind: "file", type: "", webkitGetAsEntry: () => e, getAsFile: () => null })),
        files: [],
        dropEffect: "none",
        effectAllowed: "all",
      };
      const target = document.querySelector(selector);
      const fire = (type) => {
        const ev = new DragEvent(type, { bubbles: true, cancelable: true });
        Object.defineProperty(ev, "dataTransfer", { value: dt });
        target.dispatchEvent(ev);
        return ev;
      };
      fire("dragenter");
      const over = fire("dragover");
      const hint = document.getElementById("files-drop-hint");
      const seen = { hint: !hint.hidden, hintText: hint.textContent, overCancelled: over.defaultPrevented, dropEffect: dt.dropEffect };
      const drop = fire("drop");
      return { ...seen, dropCancelled: drop.defaultPrevented, hintAfter: !hint.hidden, url: location.href };
    },
    { spec, selector },
  );
}

// The transfer rows: path -> { state, percent, text }.
export function rows(p) {
  return p.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("#files-transfers li.transfer")].map((li) => [
        li.dataset.path,
        { state: li.dataset.state, percent: Number(li.dataset.percent), text: li.innerText.replace(/\s+/g, " ").trim() },
      ]),
    ),
  );
}

export async function waitRows(p, paths, states, what) {
  await e2e.waitInPage(
    p,
    ({ paths, states }) => {
      const got = new Map([...document.querySelectorAll("#files-transfers li.transfer")].map((li) => [li.dataset.path, li.dataset.state]));
      return paths.every((x) => states.includes(got.get(x)));
    },
    { paths, states },
    { what, timeout: 120_000 },
  ).catch(async (e) => {
    e.message += `\nrows: ${JSON.stringify(await rows(p))}`;
    throw e;
  });
}

// The files of a zip (Python's zipfile, an independent reader, checks every
// CRC first): name -> sha256 of the contents.
export async function zipHashes(file) {
  const { stdout } = await promisify(execFile)(
    "python3",
    [
      "-c",
      "import hashlib, json, sys, zipfile\n" +
        "z = zipfile.ZipFile(sys.argv[1])\n" +
        "assert z.testzip() is None\n" +
        "print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir()}))",
      file,
    ],
    { timeout: 30_000 },
  );
  return JSON.parse(stdout);
}
