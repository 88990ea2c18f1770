#!/usr/bin/env bash
# File transfer throughput on loopback (the LAN case, with no link in the
# way): the release voxl on a private Xvfb serves a fresh folder; curl
# downloads a file of SIZE_MB (default 200) whole and as a folder zip;
# bench/files/upload.py uploads it the way the page does (POST, then 1 MiB
# PUTs in order on one kept-alive connection). Prints MB/s for each, over
# RUNS runs (default 3), with the median, and checks every copy by sha256.
#   bench/files/throughput.sh [SIZE_MB] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
size_mb=${1:-200}
runs=${2:-3}
cmake --preset release >/dev/null
cmake --build build/release -j2 --target voxl >/dev/null

work=$(mktemp -d)
voxl_pid=
cleanup() {
  [ -n "$voxl_pid" ] && kill "$voxl_pid" 2>/dev/null && wait "$voxl_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/root/folder"
head -c "$((size_mb << 20))" /dev/urandom >"$work/root/folder/blob.bin"
want=$(sha256sum "$work/root/folder/blob.bin" | cut -d' ' -f1)

build/release/voxl --xvfb=640x480 --addr=127.0.0.1 --port=0 --files-root="$work/root" \
  --audio-enabled=false >"$work/voxl.log" 2>&1 &
voxl_pid=$!
for _ in $(seq 300); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/voxl.log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/voxl.log"; echo "voxl did not start" >&2; exit 1; }

seconds() { date +%s.%N; }
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", b / 1048576 / s }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bytes=$((size_mb << 20))
down=() zip=() up=()
for run in $(seq "$runs"); do
  t0=$(seconds)
  curl -sf -o "$work/down.bin" "${url}files/download?path=folder%2Fblob.bin"
  t1=$(seconds)
  [ "$(sha256sum "$work/down.bin" | cut -d' ' -f1)" = "$want" ] || { echo "download differs" >&2; exit 1; }
  down+=("$(rate "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")")

  t0=$(seconds)
  curl -sf -o "$work/down.zip" "${url}files/download?path=folder"
  t1=$(seconds)
  unzip -p "$work/down.zip" blob.bin | sha256sum | grep -q "$want" || { echo "zip differs" >&2; exit 1; }
  zip+=("$(rate "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")")

  host=${url#http://}
  secs=$(python3 bench/files/upload.py "${host%/}" "up$run.bin" "$work/root/folder/blob.bin")
  [ "$(sha256sum "$work/root/Downloads/up$run.bin" | cut -d' ' -f1)" = "$want" ] || { echo "upload differs" >&2; exit 1; }
  up+=("$(rate "$bytes" "$secs")")
  rm -f "$work/down.bin" "$work/down.zip" "$work/root/Downloads/up$run.bin"
done
printf 'files throughput on loopback, %d MB, %d runs (MB/s; median last)\n' "$size_mb" "$runs"
printf 'download file: %s  median %s\n' "${down[*]}" "$(printf '%s\n' "${down[@]}" | median)"
printf 'download zip:  %s  median %s\n' "${zip[*]}" "$(printf '%s\n' "${zip[@]}" | median)"
printf 'upload:        %s  median %s\n' "${up[*]}" "$(printf '%s\n' "${up[@]}" | median)"
