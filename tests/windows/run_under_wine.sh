#!/usr/bin/env bash
# Runs a Windows test program under Wine on a private X server, in a private
# Wine prefix, and exits with the program's status:
#
#   run_under_wine.sh PROGRAM.exe [ARGS...]
#
# Xvfb picks a free display number itself (-displayfd), the prefix lives in
# a temporary folder made for this run, and both are gone afterwards, also
# when the program fails or the run is interrupted. Creating the prefix
# (wineboot) is most of the cost, about ten seconds.
set -euo pipefail

die() { printf 'run_under_wine: %s\n' "$*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: run_under_wine.sh PROGRAM.exe [ARGS...]"
program=$1
shift
[ -f "$program" ] || die "no test program at $program: build it with 'cmake --preset windows-cross && cmake --build --preset windows-cross --target voxl_windows_tests'"

wine=$(command -v wine64 || true)
[ -n "$wine" ] || { [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64; }
[ -n "$wine" ] || wine=$(command -v wine || true)
[ -n "$wine" ] || die "Wine is not installed (scripts/setup installs wine64)"
command -v wineserver >/dev/null || die "wineserver is missing (scripts/setup installs wine)"
command -v Xvfb >/dev/null || die "Xvfb is missing (scripts/setup installs xvfb)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/voxl-wine.XXXXXX")
xvfb_pid=
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -d "$tmp/prefix" ]; then
    WINEPREFIX="$tmp/prefix" wineserver -k >/dev/null 2>&1 || true
    WINEPREFIX="$tmp/prefix" wineserver -w >/dev/null 2>&1 || true
  fi
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Xvfb writes the display it chose to the FIFO once it accepts clients.
mkfifo "$tmp/displayfd"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$tmp/displayfd" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
display=
read -r -t 60 display <"$tmp/displayfd" || true
[ -n "$display" ] || { cat "$tmp/xvfb.log" >&2; die "Xvfb did not start"; }

export DISPLAY=":$display"
export WINEPREFIX="$tmp/prefix"
export WINEARCH=win64
export WINEDEBUG=-all
# No Mono or Gecko installers, no desktop menu entries outside the prefix.
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
unset WAYLAND_DISPLAY

start=$(date +%s)
"$wine" wineboot -i >"$tmp/wineboot.log" 2>&1 || { cat "$tmp/wineboot.log" >&2; die "wineboot failed"; }
wineserver -w
printf 'run_under_wine: prefix ready in %d s on display :%s\n' "$(( $(date +%s) - start ))" "$display"

status=0
"$wine" "$program" "$@" || status=$?
exit "$status"
