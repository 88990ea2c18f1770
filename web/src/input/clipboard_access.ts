// Whether the page can read the viewer's clipboard through the async
// clipboard API by itself, without the browser asking at every read. Where
// it cannot (no navigator.clipboard or no read function; Firefox, whose
// read shows a "Paste" button each time and has no "clipboard-read"
// permission to ask for; a permission the viewer denied), the paste event
// of a paste shortcut carries the text instead, and the panel offers its
// clipboard box. Pure: takes the browser's objects as arguments.

export interface ClipboardLike {
  read?: unknown;
  readText?: unknown;
  writeText?: unknown;
}

export interface PermissionStatusLike {
  state: string;
  addEventListener(type: "change", fn: () => void): void;
}

export interface PermissionsLike {
  query(d: { name: PermissionName }): Promise<PermissionStatusLike>;
}

// What can be told without asking: a clipboard with a way to read and write.
export function hasAsyncClipboard(clip: ClipboardLike | undefined | null): boolean {
  return !!clip && (typeof clip.read === "function" || typeof clip.readText === "function") && typeof clip.writeText === "function";
}

// Watches whether reading is available: `changed` hears every new answer
// (and the first, once the permission is known). Resolves to that first
// answer.
export async function watchAsyncRead(
  clip: ClipboardLike | undefined | null,
  permissions: PermissionsLike | undefined | null,
  changed: (available: boolean) => void,
): Promise<boolean> {
  if (!hasAsyncClipboard(clip) || !permissions || typeof permissions.query !== "function") {
    changed(false);
    return false;
  }
  let status: PermissionStatusLike;
  try {
    status = await permissions.query({ name: "clipboard-read" as PermissionName });
  } catch {
    // The browser knows no such permission: each read asks the viewer.
    changed(false);
    return false;
  }
  const now = () => status.state === "granted" || status.state === "prompt";
  try {
    status.addEventListener("change", () => changed(now()));
  } catch {
    // A status that cannot be watched keeps its first answer.
  }
  const first = now();
  changed(first);
  return first;
}
