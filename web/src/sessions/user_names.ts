// Users as the sessions page names them: the built-in user (or token) is
// recorded as "" and shown in words. Pure.

export const BUILT_IN_USER = "(built-in user)";

export function userLabel(user: string): string {
  return user === "" ? BUILT_IN_USER : user;
}

// "alice, bob", each user once, in the order given; a dash for nobody.
export function usersText(users: readonly string[]): string {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const u of users) {
    if (seen.has(u)) continue;
    seen.add(u);
    names.push(userLabel(u));
  }
  return names.length === 0 ? "–" : names.join(", ");
}
