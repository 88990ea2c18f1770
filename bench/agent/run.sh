#!/usr/bin/env bash
# Builds the release binaries and runs the agent endpoint measurements
# (bench/agent/measure.py): /screenshot against ffmpeg x11grab and
# ImageMagick import, /wait reaction time, CPU of recording vs streaming.
#   bench/agent/run.sh [measure.py options]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
cmake --preset release >/dev/null
cmake --build build/release -j2 --target voxl voxl-demo voxl-wait-bench voxl-png-bench
exec python3 bench/agent/measure.py --build build/release "$@"
