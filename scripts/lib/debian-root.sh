# A Debian 12 root made by debootstrap, for the checks that need a bare
# machine without a container engine (scripts/check-container,
# scripts/check-first-run). Sourced; needs root. The functions print
# nothing on success.

# debian_root_make DIR MIRROR LOG: a minbase bookworm root in DIR.
debian_root_make() {
  debootstrap --variant=minbase bookworm "$1" "$2" >"$3" 2>&1 || { tail -n 20 "$3" >&2; return 1; }
}

# The host's file systems a program in the root sees, in mount order.
debian_root_mounts=(proc sys dev dev/pts dev/shm)

# debian_root_mount DIR: /proc, /sys and /dev (with its pts and shm) of the
# host in DIR.
debian_root_mount() {
  mount -t proc proc "$1/proc"
  mount --bind /sys "$1/sys"
  mount --bind /dev "$1/dev"
  mount --bind /dev/pts "$1/dev/pts"
  mount --bind /dev/shm "$1/dev/shm"
}

# debian_root_processes DIR: the processes whose root is DIR.
debian_root_processes() {
  local dir p
  dir=$(readlink -f "$1")
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$dir" ] && echo "${p#/proc/}"
  done
  return 0
}

# debian_root_remove DIR: stops what still runs in DIR (TERM, then KILL
# after 5 s), unmounts what debian_root_mount mounted and deletes DIR,
# which it refuses while anything is still mounted under it.
debian_root_remove() {
  local dir=$1 pids i m
  [ -d "$dir" ] || return 0
  pids=$(debian_root_processes "$dir")
  if [ -n "$pids" ]; then
    kill $pids 2>/dev/null || true
    for i in $(seq 50); do
      pids=$(debian_root_processes "$dir")
      [ -z "$pids" ] && break
      sleep 0.1
    done
    [ -n "$pids" ] && { kill -KILL $pids 2>/dev/null || true; sleep 0.5; }
  fi
  for ((i = ${#debian_root_mounts[@]} - 1; i >= 0; i--)); do
    m="$dir/${debian_root_mounts[i]}"
    if mountpoint -q "$m"; then umount "$m" || umount -l "$m"; fi
  done
  if awk -v d="$(readlink -f "$dir")/" 'index($2, d) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
    echo "still mounted under $dir; not deleting it" >&2
    return 1
  fi
  rm -rf "$dir"
}
