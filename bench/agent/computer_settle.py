#!/usr/bin/env python3
"""Time from an agent's action to a screenshot that shows its effect:
POST /computer (the action, then the settle from damage, then the settled
screenshot, in one request) against what agent demos do: the action, a fixed
sleep of 2 s, then a screenshot. Side by side in one run, on one voxl with
its private Xvfb, against an application that marks each click (the e2e
input probe with --mark-clicks), answering at once or, with --delays, some
milliseconds later (a slow application).

For each action the script also checks the screenshot: it must show the
mark of that click (red at the click's position), else the agent would have
acted on a stale picture.

    bench/agent/computer_settle.py --build build/release [--actions 50] [--delays 0,500]
"""
import argparse
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import time
import urllib.request
import zlib
import base64


def decode_png(data):
    """8-bit RGB or RGBA, not interlaced: (width, height, rows of bytes, channels)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[color]
            assert depth == 8
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows, channels


def red_at(png, x, y):
    _, _, rows, ch = png
    r, g, b = rows[y][x * ch:x * ch + 3]
    return r > 200 and g < 60 and b < 60


def request(port, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.read()


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="build directory with voxl and tests/e2e/voxl-e2e-input-probe")
    ap.add_argument("--actions", type=int, default=50)
    ap.add_argument("--delays", default="0,500", help="the application's reaction delays to try, in ms")
    ap.add_argument("--sleep", type=float, default=2.0, help="the fixed sleep of the reference")
    ap.add_argument("--query", default="", help="more /computer parameters, e.g. react=0")
    ap.add_argument("--no-reference", action="store_true", help="time /computer only")
    args = ap.parse_args()
    voxl_bin = os.path.join(args.build, "voxl")
    probe_bin = os.path.join(args.build, "tests/e2e/voxl-e2e-input-probe")

    results = []
    for delay in [int(d) for d in args.delays.split(",")]:
        voxl = subprocess.Popen([voxl_bin, "--xvfb=1280x800", "--addr=127.0.0.1", "--port=0"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        probe = None
        try:
            log = ""
            deadline = time.monotonic() + 60
            m = None
            while not m and time.monotonic() < deadline:
                log += voxl.stdout.readline()
                m = re.search(r"voxl is serving http://[^:]+:(\d+)/? \(display (:\d+)\)", log)
            if not m:
                sys.exit("voxl did not start:\n" + log)
            port, display = int(m.group(1)), m.group(2)
            env = dict(os.environ, DISPLAY=display)
            # The private Xvfb admits holders of its cookie; the log names the file.
            cookie = re.search(r"admitting only holders of its cookie \((\S+)\)", log)
            if cookie:
                env["XAUTHORITY"] = cookie.group(1)
            probe_args = [probe_bin, f"--display={display}", "--mark-clicks"]
            if delay:
                probe_args.append(f"--mark-delay={delay}")
            probe = subprocess.Popen(probe_args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
            if probe.stdout.readline().strip() != "ready":
                sys.exit("the probe did not start")
            # Distinct places on a grid, none on another's mark.
            spots = [(60 + (i % 10) * 110, 60 + (i // 10) * 110) for i in range(args.actions)]
            runs = [("/computer", "computer")] + ([] if args.no_reference else [(f"sleep {args.sleep:g} s", "sleep")])
            for label, run in runs:
                times, fresh = [], 0
                for i, (x, y) in enumerate(spots):
                    x += 30 if run == "sleep" else 0  # beside the other run's mark
                    t0 = time.perf_counter()
                    if run == "computer":
                        answer = json.loads(request(port, "POST", "/computer?screenshot=1&cursor=0" + (("&" + args.query) if args.query else ""),
                                                    {"action": "left_click", "coordinate": [x, y]}))
                        shot = base64.b64decode(answer["screenshot"]["data"])
                    else:
                        request(port, "POST", "/input", {"type": "click", "x": x, "y": y})
                        time.sleep(args.sleep)
                        shot = request(port, "GET", "/screenshot")
                    # Until the agent holds the PNG; checking it is not timed.
                    times.append((time.perf_counter() - t0) * 1000)
                    fresh += red_at(decode_png(shot), x, y)
                results.append((delay, label, times, fresh))
                print(f"app delay {delay:4d} ms  {label:<12} median {statistics.median(times):7.0f} ms  "
                      f"p90 {pct(times, 0.9):7.0f} ms  total {sum(times) / 1000:6.1f} s  "
                      f"showed the click {fresh}/{len(spots)}", flush=True)
        finally:
            if probe:
                probe.stdin.close()
                probe.wait(timeout=10)
            voxl.terminate()
            voxl.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
