#!/usr/bin/env bash
# The agent commands of voxl's first README, exactly as it gives them
# (screenshots, recordings, /wait), against the real binary: a script
# written for them must work on voxl unchanged. They name localhost:6901,
# so the test runs in a network namespace of its own, where nothing else
# listens and nothing it does reaches the machine's own port 6901.
#
#   tests/cli/seed_commands_test.sh path/to/voxl
set -euo pipefail

voxl=$(realpath "$1")
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

if [ "${VOXL_SEED_NETNS:-}" != 1 ]; then
  export VOXL_SEED_NETNS=1
  command -v unshare >/dev/null || fail "unshare (util-linux) is missing"
  if [ "$(id -u)" = 0 ]; then
    exec unshare --net -- "$0" "$@"
  fi
  exec unshare --net --map-root-user -- "$0" "$@"
fi
ip link set lo up

for tool in curl jq ffprobe; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/setup test installs it)"
done

work=$(mktemp -d)
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

# voxl on a private display of its own, as with no DISPLAY; ready when it
# says it is serving (tail ends with voxl).
"$voxl" --xvfb=640x480 --addr=127.0.0.1 --port=6901 >voxl.log 2>&1 &
pid=$!
timeout 60 grep -q -m1 "voxl is serving" <(tail -n +1 -F --pid="$pid" voxl.log 2>/dev/null) ||
  { cat voxl.log >&2; fail "voxl did not start in 60 s"; }

mp4_ok() {
  local codec
  codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 "$1") ||
    { cat voxl.log >&2; fail "$1 is not an MP4 ffprobe reads: $(head -c 300 "$1")"; }
  [ "$codec" = h264 ] || fail "$1 holds '$codec', not H.264"
}
wait_ok() {
  echo "$1"
  echo "$1" | jq -e '(.changed | type) == "boolean" and (.timed_out | type) == "boolean" and
                     (.seq | type) == "number" and (.waited_ms | type) == "number"' >/dev/null ||
    fail "/wait answered '$1'"
}

# Each line as the seed gives it, then what it produced is checked.
curl -o shot.png localhost:6901/screenshot                  # the screen as a PNG
[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "shot.png is not a PNG"
curl -o clip.mp4 "localhost:6901/record?seconds=10"         # an MP4 of the next 10 s
mp4_ok clip.mp4
rm clip.mp4
id=$(curl -s -X POST localhost:6901/record/start | jq .id)  # or start...
[[ "$id" =~ ^[0-9]+$ ]] || { cat voxl.log >&2; fail "/record/start gave no id: '$id'"; }
curl -o clip.mp4 -X POST "localhost:6901/record/stop?id=$id" # ...and stop when done
mp4_ok clip.mp4

wait_ok "$(curl localhost:6901/wait)"                                  # once nothing changed for 300 ms
wait_ok "$(curl "localhost:6901/wait?idle=1000&timeout=30000")"        # still for 1 s, give up after 30 s
wait_ok "$(curl "localhost:6901/wait?change&region=0,0,800,600")"      # the first change in that rectangle
echo "1 passed, 0 failed"
