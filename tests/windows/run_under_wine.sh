#!/usr/bin/env bash
# Runs a Windows test program under Wine on a private X server, in a private
# Wine prefix, and exits with the program's status:
#
#   run_under_wine.sh PROGRAM.exe [ARGS...]
#   run_under_wine.sh --script COMMAND [ARGS...]
#
# The second form runs a Linux command (a test script, or node with a test
# file) once the prefix is ready, with DISPLAY, WINEPREFIX and VOXL_WINE
# (the wine program to start Windows programs with) set; it starts its
# Windows programs itself. The screen is 1024x768 unless VOXL_WINE_SCREEN
# (WxH) says otherwise.
#
# Xvfb picks a free display number itself (-displayfd), the prefix lives in
# a temporary folder made for this run, and both are gone afterwards, also
# when the program fails or the run is interrupted. Creating the prefix
# (wineboot) is most of the cost, about ten seconds.
set -euo pipefail

die() { printf 'run_under_wine: %s\n' "$*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: run_under_wine.sh PROGRAM.exe [ARGS...] | --script COMMAND [ARGS...]"
script=
if [ "$1" = --script ]; then
  [ $# -ge 2 ] || die "usage: run_under_wine.sh --script COMMAND [ARGS...]"
  script=$2
  shift 2
  command -v "$script" >/dev/null || die "no command $script"
  program=$script
else
  program=$1
  shift
  [ -f "$program" ] || die "no test program at $program: build it with 'cmake --preset windows-cross && cmake --build --preset windows-cross --target voxl_windows_tests'"
fi

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
Xvfb -displayfd 3 -screen 0 "${VOXL_WINE_SCREEN:-1024x768}x24" -nolisten tcp 3>"$tmp/displayfd" >"$tmp/xvfb.log" 2>&1 &
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

# A fresh prefix in $WINEPREFIX.
make_prefix() {
  rm -rf "$WINEPREFIX"
  local start
  start=$(date +%s)
  "$wine" wineboot -i >"$tmp/wineboot.log" 2>&1 || { cat "$tmp/wineboot.log" >&2; die "wineboot failed"; }
  wineserver -w
  printf 'run_under_wine: prefix ready in %d s on display :%s\n' "$(( $(date +%s) - start ))" "$display"
}

# Copies the program's output through, and when Wine says its server
# crashed, ends the program's process group: a client of a dead wineserver
# waits for an answer that never comes, until ctest's timeout.
watch_output() {
  local line
  while IFS= read -r line; do
    printf '%s\n' "$line"
    case $line in
      *"wineserver crashed"*)
        : >"$tmp/crashed"
        [ -s "$tmp/pid" ] && kill -KILL -- "-$(cat "$tmp/pid")" 2>/dev/null || true
        ;;
    esac
  done
}

# Runs the program once in its own process group; sets $status.
run_program() {
  rm -f "$tmp/crashed" "$tmp/pid"
  status=0
  if [ -n "$script" ]; then
    VOXL_WINE=$wine setsid "$script" "$@" > >(watch_output) 2>&1 &
  else
    setsid "$wine" "$program" "$@" > >(watch_output) 2>&1 &
  fi
  echo $! >"$tmp/pid"
  wait "$!" || status=$?
  WINEPREFIX="$tmp/prefix" wineserver -k >/dev/null 2>&1 || true
  WINEPREFIX="$tmp/prefix" wineserver -w >/dev/null 2>&1 || true
}

# A crash of wineserver is Wine's fault, not the program's (seen once in
# many runs, as a job's processes were ended): the run is repeated once in
# a new prefix, and says so. A second crash fails the run.
make_prefix
run_program "$@"
if [ -e "$tmp/crashed" ]; then
  printf 'run_under_wine: wineserver crashed; running %s again in a new prefix\n' "${program##*/}" >&2
  make_prefix
  run_program "$@"
  [ ! -e "$tmp/crashed" ] || die "wineserver crashed twice"
fi
exit "$status"
