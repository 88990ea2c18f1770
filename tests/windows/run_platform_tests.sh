#!/usr/bin/env bash
# Runs the Windows platform test program under Wine (run_under_wine.sh)
# with a fixture for the file jail that only the Linux side can make: Unix
# symlinks out of the shared folder and back into it, which Wine shows to
# Windows programs as plain entries that it follows, and a name with a
# trailing dot. VOXL_JAIL_FIXTURE names its base folder (a Unix path); it is
# removed afterwards.
#
#   run_platform_tests.sh PROGRAM.exe [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=$(mktemp -d "${TMPDIR:-/tmp}/voxl-jail-fixture.XXXXXX")
trap 'rm -rf "$base"' EXIT
root=$base/root
mkdir -p "$root/docs/deep" "$root/a long folder name" "$base/outside-dir"
printf hello >"$root/docs/a.txt"
printf outside >"$base/secret.txt"
printf out >"$base/outside-dir/x.txt"
ln -s ../secret.txt "$root/up-link"
ln -s "$base/secret.txt" "$root/abs-link"
ln -s ../outside-dir "$root/dir-link"
ln -s docs/a.txt "$root/in-link"
ln -s nowhere "$root/dangling"
printf dot >"$root/trailing."
export VOXL_JAIL_FIXTURE=$base
"$here/run_under_wine.sh" "$@"
