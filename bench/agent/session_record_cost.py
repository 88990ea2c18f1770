#!/usr/bin/env python3
"""What --record-sessions costs, beside the same run without it: one viewer
on a private 1920x1080 Xvfb with an office-like workload (voxl-demo with its
block ticking once a second, like a clock, and a word typed into it every
second through /input, about five characters a second). Runs alternate
off and on; medians are reported: voxl's CPU, the stream's bitrate, and
with recording on what the sessions folder grew by, as MB per hour.

    bench/agent/session_record_cost.py --build build/release [--runs 3] [--seconds 60] [--demo-fps 1]

--demo-fps 60 makes voxl-demo's block move all the time instead: a busy
screen, for the other end of the range.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import WebSocketSink, cpu_seconds  # noqa: E402
from record_buffer_cost import start  # noqa: E402

WORDS = "the quarterly report shows steady growth in every region we serve".split()


def folder_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass  # a segment renamed while we looked
    return total


def typist(port, stop):
    """A word and a space each second, as a person typing at about 5 characters a second."""
    i = 0
    while not stop.wait(1.0):
        body = ('{"type":"type","text":"%s "}' % WORDS[i % len(WORDS)]).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/input", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            r.read()
        i += 1


def one_run(args, mode, demo):
    folder = tempfile.mkdtemp(prefix="voxl-sessions-bench-")
    os.chmod(folder, 0o700)
    extra = ["--record-sessions", folder] if mode == "on" else []
    voxl, port = start(args.build, extra, f"{demo} --fps {args.demo_fps}", size="1920x1080")
    stop = threading.Event()
    try:
        sink = WebSocketSink(port)
        sink.start()
        time.sleep(3)  # the first key frame and the rate control settle
        typing = threading.Thread(target=typist, args=(port, stop), daemon=True)
        typing.start()
        time.sleep(2)
        b0, c0, d0, t0 = sink.bytes, cpu_seconds(voxl.pid), folder_bytes(folder), time.monotonic()
        time.sleep(args.seconds)
        elapsed = time.monotonic() - t0
        kbps = (sink.bytes - b0) * 8 / elapsed / 1000
        cores = (cpu_seconds(voxl.pid) - c0) / elapsed
        mb_per_hour = (folder_bytes(folder) - d0) / elapsed * 3600 / 1e6
        stop.set()
        typing.join(timeout=30)
        sink.stop()
        return kbps, cores, mb_per_hour
    finally:
        stop.set()
        voxl.terminate()
        voxl.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--demo-fps", type=int, default=1)
    args = ap.parse_args()
    demo = os.path.join(args.build, "voxl-demo")
    rows = {"off": [], "on": []}
    for _ in range(args.runs):
        for mode in ("off", "on"):
            kbps, cores, mbh = one_run(args, mode, demo)
            rows[mode].append((kbps, cores, mbh))
            disk = f", sessions folder {mbh:.0f} MB/h" if mode == "on" else ""
            print(f"recording {mode:<3} {kbps:7.0f} kbit/s to the viewer, voxl {cores:.3f} cores{disk}", flush=True)
    med = {m: [statistics.median(r[i] for r in rows[m]) for i in range(3)] for m in rows}
    for m in ("off", "on"):
        disk = f", {med[m][2]:.0f} MB per hour on the disk" if m == "on" else ""
        print(f"median, recording {m}: {med[m][0]:.0f} kbit/s, {med[m][1]:.3f} cores{disk}")
    print(f"CPU with recording / without: {med['on'][1] / med['off'][1]:.2f}; "
          f"disk per hour / stream per hour: {med['on'][2] / (med['on'][0] * 3600 / 8 / 1000):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
