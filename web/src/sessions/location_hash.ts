// The page's address names the open session in its hash, "#id=ID", so a
// link to one session can be shared. Pure.

// The session the hash names, or null for the list.
export function sessionIdFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const id = params.get("id");
  return id !== null && id !== "" ? id : null;
}

// The hash that names session `id`.
export function hashForSession(id: string): string {
  return `#${new URLSearchParams({ id }).toString()}`;
}
