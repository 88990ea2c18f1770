#!/usr/bin/env bash
# The soak: voxl streams an animation to two viewers for an hour with churn
# (a viewer leaving and rejoining, short-lived viewers, screenshots, waits),
# and its RSS, open fds and SysV segments are sampled into a CSV; a summary
# (min/median/max, RSS slope over the last half) is printed at the end.
# Not part of CI.
#
#   bench/soak/run.sh [--preset=dev] [voxl-soak flags...]
#
# e.g. bench/soak/run.sh --duration=180 --interval=5 --csv=/tmp/soak.csv
# Flags of voxl-soak: --duration (s, default 3600), --interval (s, 10),
# --csv (soak.csv), --hz (30), --churn-every (s, 2), --rejoin-every (s, 60),
# --width/--height (960x540), --voxl-arg=ARG (repeatable).
#
# The dev preset's voxl has AddressSanitizer, whose quarantine holds freed
# memory back; it is capped at 16 MiB here so RSS follows what voxl holds.
# A release build gives the figures a user would see.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
preset=dev
if [[ ${1:-} == --preset=* ]]; then
  preset=${1#--preset=}
  shift
fi

cmake --build --preset "$preset" --target voxl voxl-soak -j2 >&2
binary=$(find "$root/build/$preset" -maxdepth 1 -name voxl-soak -type f | head -n 1)
[ -x "$binary" ] || { echo "run.sh: voxl-soak was not built in build/$preset" >&2; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16:thread_local_quarantine_size_kb=256"
exec "$binary" "$@"
