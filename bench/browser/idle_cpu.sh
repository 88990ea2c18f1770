#!/usr/bin/env bash
# CPU that voxl uses with a still screen and one viewer: starts voxl (release
# build) on a private 1920x1080 Xvfb with a solid background, opens the page
# in headless Chromium, then reads voxl's user+system time from /proc over
# 30 s.   bench/browser/idle_cpu.sh [seconds=30]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-30}
voxl="$root/build/release/voxl"
[ -x "$voxl" ] || { echo "idle_cpu: build the release preset first (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
log=$(mktemp)
env -u DISPLAY "$voxl" --xvfb=1920x1080 --addr=127.0.0.1 --port=0 --exec "xsetroot -solid '#336699'" 2>"$log" &
vpid=$!
trap 'kill -INT $vpid 2>/dev/null; wait $vpid 2>/dev/null; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || { echo "idle_cpu: voxl did not start:" >&2; cat "$log" >&2; exit 1; }
# One viewer for the whole window (first frame, then the still screen).
node "$root/bench/browser/measure.mjs" "$url" $((secs + 10)) >/dev/null &
viewer=$!
sleep 8  # let the viewer connect and the first frame go by
ticks() { awk '{print $14 + $15}' "/proc/$vpid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); s0=$(date +%s.%N)
sleep "$secs"
t1=$(ticks); s1=$(date +%s.%N)
wait $viewer || true
awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s0="$s0" -v s1="$s1" \
  'BEGIN { printf "voxl CPU with a still screen and one viewer: %.2f s over %.1f s (%.2f%% of a core)\n", (b-a)/hz, s1-s0, 100*(b-a)/hz/(s1-s0) }'
