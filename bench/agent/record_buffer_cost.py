#!/usr/bin/env python3
"""What --record-buffer-seconds costs: one viewer watching voxl-demo's
animation on a private 1280x720 Xvfb, with the buffer off and on (runs
alternate, medians reported), and voxl's CPU on a still screen with the
buffer on and no viewer.

    bench/agent/record_buffer_cost.py --build build/release [--runs 3] [--seconds 20]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import WebSocketSink, cpu_seconds  # noqa: E402


def start(build, extra, exec_cmd=None, size="1280x720"):
    argv = [os.path.join(build, "voxl"), f"--xvfb={size}", "--addr=127.0.0.1", "--port=0"] + extra
    if exec_cmd:
        argv += ["--exec", exec_cmd]
    voxl = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log, deadline = "", time.monotonic() + 60
    while time.monotonic() < deadline:
        log += voxl.stdout.readline()
        m = re.search(r"voxl is serving http://[^:]+:(\d+)/? \(display (:\d+)\)", log)
        if m:
            # Keep reading its output so it never blocks on a full pipe.
            subprocess.Popen(["cat"], stdin=voxl.stdout, stdout=subprocess.DEVNULL)
            return voxl, int(m.group(1))
    voxl.kill()
    sys.exit("voxl did not start:\n" + log)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--buffer", type=int, default=30)
    args = ap.parse_args()
    demo = os.path.join(args.build, "voxl-demo")
    rows = {"off": [], "on": []}
    for _ in range(args.runs):
        for mode in ("off", "on"):
            extra = [f"--record-buffer-seconds={args.buffer}"] if mode == "on" else []
            voxl, port = start(args.build, extra, demo)
            try:
                sink = WebSocketSink(port)
                sink.start()
                time.sleep(3)  # the first key frame and the rate control settle
                b0, c0, t0 = sink.bytes, cpu_seconds(voxl.pid), time.monotonic()
                time.sleep(args.seconds)
                elapsed = time.monotonic() - t0
                kbps = (sink.bytes - b0) * 8 / elapsed / 1000
                cores = (cpu_seconds(voxl.pid) - c0) / elapsed
                held = ""
                if mode == "on":
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/record?last={args.buffer}", timeout=60) as r:
                        mp4 = r.read()
                        held = f", /record?last={args.buffer}: {len(mp4) / 1e6:.1f} MB, " \
                               f"{r.headers['X-Voxl-Duration-Ms']} ms, {r.headers['X-Voxl-Frames']} frames"
                rows[mode].append((kbps, cores))
                print(f"buffer {mode:<3} {kbps:8.0f} kbit/s to the viewer, voxl {cores:.2f} cores{held}", flush=True)
                sink.stop()
            finally:
                voxl.terminate()
                voxl.wait(timeout=30)
    for mode in ("off", "on"):
        k = statistics.median(r[0] for r in rows[mode])
        c = statistics.median(r[1] for r in rows[mode])
        print(f"median, buffer {mode}: {k:.0f} kbit/s, {c:.2f} cores")
    off = statistics.median(r[0] for r in rows["off"])
    on = statistics.median(r[0] for r in rows["on"])
    print(f"bitrate with the buffer / without: {on / off:.2f}")
    # A still screen, no viewer, the buffer on: what an idle desktop costs.
    voxl, port = start(args.build, [f"--record-buffer-seconds={args.buffer}"])
    try:
        time.sleep(3)
        c0, t0 = cpu_seconds(voxl.pid), time.monotonic()
        time.sleep(10)
        print(f"still screen, no viewer, buffer on: voxl {(cpu_seconds(voxl.pid) - c0) / (time.monotonic() - t0):.3f} cores")
    finally:
        voxl.terminate()
        voxl.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
