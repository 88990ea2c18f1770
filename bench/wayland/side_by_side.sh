#!/usr/bin/env bash
# A Wayland desktop beside an X11 one as a viewer sees them: the texture
# workload (a full-screen scrolling photo-like picture with film grain, at
# 60 frames a second) on voxl's own Xvfb and on voxl's own headless sway,
# both 1920x1080, each watched by headless Chromium through voxl's page
# (bench/browser/measure.mjs: decoded frames a second and capture -> decoded
# latency), taking turns. Release build, or the folder given (holding voxl,
# voxl-bench-workload and voxl-bench-wayland-workload: an A/B of two builds).
#
#   bench/wayland/side_by_side.sh [seconds=20] [rounds=2] [build-dir=build/release]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-20}
rounds=${2:-2}
build=$(cd "${3:-$root/build/release}" && pwd)
for p in voxl voxl-bench-workload voxl-bench-wayland-workload; do
  [ -x "$build/$p" ] || { echo "side_by_side: build the release preset first ($p is missing)" >&2; exit 2; }
done
work=$(mktemp -d)
chmod 0777 "$work"  # the Wayland workload runs as voxl's desktop user when voxl is root
trap 'rm -rf "$work"' EXIT

# run NAME DRAW-LOG VOXL-ARGS... : starts voxl, measures, stops it; says
# how many frames a second the workload drew meanwhile (its draw log).
run() {
  local name=$1 draws=$2
  shift 2
  local log="$work/$name.voxl.log"
  env -u DISPLAY -u WAYLAND_DISPLAY "$build/voxl" --addr=127.0.0.1 --port=0 "$@" 2>"$log" &
  local vpid=$! url=""
  for _ in $(seq 1 150); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1 || true)
    [ -n "$url" ] && break
    sleep 0.2  # voxl is starting: nothing to wait on but its log
  done
  if [ -z "$url" ]; then
    echo "side_by_side: voxl did not start ($name):" >&2
    cat "$log" >&2
    kill -INT $vpid 2>/dev/null || true
    wait $vpid 2>/dev/null || true
    return 1
  fi
  printf '%-8s ' "$name"
  local before after
  before=$(wc -l <"$draws" 2>/dev/null || echo 0)
  node "$root/bench/browser/measure.mjs" "$url" "$secs" | tr '\n' ' '
  after=$(wc -l <"$draws" 2>/dev/null || echo 0)
  # measure.mjs's window is its last $secs seconds; the count spans its
  # first frame too, so it reads a little high.
  echo " drawn_fps_about=$(( (after - before) / (secs + 2) ))"
  kill -INT $vpid
  wait $vpid 2>/dev/null || true
}

echo "texture workload, 1920x1080, 60 frames a second; $rounds rounds of $secs s each, taking turns"
for r in $(seq 1 "$rounds"); do
  run X11 "$work/x11-$r.log" --xvfb=1920x1080 \
    --exec "$build/voxl-bench-workload --mode texture --fps 60 --log $work/x11-$r.log"
  run Wayland "$work/wayland-$r.log" --wayland=1920x1080 \
    --exec "$build/voxl-bench-wayland-workload --fps 60 --log $work/wayland-$r.log"
done
