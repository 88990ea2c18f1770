#!/usr/bin/env bash
# Builds the release preset and benchmarks the X11 capturer's pixel sources
# (GetImage, ShmGetImage, Xvfb framebuffer). The benchmark's defaults are
# the reference configuration: one private 3840x2160 Xvfb started with
# -shmem, capture regions of 1280x720, 1920x1080, 2560x1440 and 3840x2160 at
# its top-left corner, 30 warm-up and 300 timed grabs per row.
# Prints a markdown table; extra arguments go to the benchmark (see --help), e.g.
#   scripts/bench-x11.sh --json
#   scripts/bench-x11.sh --sizes=1920x1080 --iterations=100
# Exits non-zero when the build fails or any of the benchmark's checks does
# (pixels differ between sources, wrong source chosen, a fallback happened).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

for tool in cmake ninja Xvfb; do
  if ! command -v "$tool" >/dev/null; then
    echo "bench-x11: $tool not found; run scripts/setup" >&2
    exit 2
  fi
done

# Build output goes to stderr so that stdout is only the report (--json stays parseable).
cmake --preset release >&2
cmake --build --preset release --target voxl-capture-bench >&2

exec "$root/build/release/voxl-capture-bench" "$@"
