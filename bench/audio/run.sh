#!/usr/bin/env bash
# Audio figures on a release build: the latency from a tone played into a
# private PulseAudio's sink to the packet that holds it being decoded by a
# viewer (median, p10, p90 over N trials), and voxl's CPU with one viewer
# on a still screen with audio on and off.
#   bench/audio/run.sh [trials=30] [cpu-window-seconds=20]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
for tool in cmake ninja Xvfb pulseaudio pactl; do
  command -v "$tool" >/dev/null || { echo "audio bench: $tool not found; run scripts/setup test" >&2; exit 2; }
done
# voxl-audio-bench lives with the stream tests: on, in case scripts/run
# configured the release tree without them.
cmake --preset release -DVOXL_BUILD_TESTS=ON >&2
cmake --build --preset release --target voxl voxl-audio-bench >&2
exec "$root/build/release/voxl-audio-bench" "$@"
