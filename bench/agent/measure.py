#!/usr/bin/env python3
"""Agent endpoint measurements on one private 1920x1080 Xvfb, side by side:

  1. /screenshot latency (curl, whole request) against `ffmpeg -f x11grab
     -frames:v 1` and ImageMagick `import -window root`, each writing a PNG;
  2. /wait reaction time (draw -> answer) with voxl-wait-bench;
  3. voxl's CPU while a viewer streams an animation, with and without a
     recording running at the same time.

Run through bench/agent/run.sh, which builds the release binaries first.
"""
import argparse
import base64
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


# Debian's ImageMagick convert.
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else "convert"


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def summary(name, ms):
    return f"{name:<34} median {statistics.median(ms):8.1f} ms   p99 {pct(ms, 0.99):8.1f} ms   (n={len(ms)})"


def free_display():
    for n in range(140, 400):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    raise SystemExit("no free display number")


def wait_for(cond, limit, what):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def timed(cmd, env):
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1000


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cores_over(pid, seconds):
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - c0) / (time.monotonic() - t0)


class WebSocketSink(threading.Thread):
    """A viewer that takes the stream and throws it away (no acks: TCP paces it)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise SystemExit(f"WebSocket refused: {head!r}")
        self.bytes = 0
        self.stopped = False

    def run(self):
        while not self.stopped:
            data = self.sock.recv(1 << 16)
            if not data:
                return
            self.bytes += len(data)

    def stop(self):
        self.stopped = True
        self.sock.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="build directory with voxl, voxl-demo, voxl-wait-bench")
    ap.add_argument("--shots", type=int, default=40)
    ap.add_argument("--wait-rounds", type=int, default=300)
    ap.add_argument("--cpu-seconds", type=float, default=10)
    args = ap.parse_args()
    for tool in ("Xvfb", "ffmpeg", "import", "identify", "display", "curl"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: bash scripts/setup installs it")

    tmp = tempfile.mkdtemp(prefix="voxl-agent-bench-")
    n = free_display()
    env = dict(os.environ, DISPLAY=f":{n}")
    procs = []
    try:
        xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(xvfb)
        wait_for(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}"), 30, "Xvfb")
        # Desktop-like content: a gradient with a noisy picture and flat panels.
        bg = os.path.join(tmp, "bg.png")
        subprocess.run([CONVERT, "-size", "1920x1080", "gradient:#1d3557-#a8dadc",
                        "(", "-size", "640x400", "plasma:fractal", ")", "-geometry", "+160+140", "-composite",
                        "-fill", "#f1faee", "-draw", "rectangle 900,120 1760,900",
                        "-fill", "#457b9d", "-draw", "rectangle 940,160 1720,200", bg], check=True)
        # display sets the root background but exits with 1 on a server
        # without a window manager: check the result instead.
        subprocess.run(["display", "-window", "root", bg], env=env)
        check = os.path.join(tmp, "check.png")
        subprocess.run(["import", "-window", "root", check], env=env, check=True)
        colours = subprocess.run(["identify", "-format", "%k", check], capture_output=True, text=True, check=True)
        if int(colours.stdout) < 1000:
            raise SystemExit(f"the background did not show ({colours.stdout} colours)")

        log = open(os.path.join(tmp, "voxl.log"), "w+")
        voxl = subprocess.Popen([os.path.join(args.build, "voxl"), f"--display=:{n}", "--addr=127.0.0.1",
                                 "--port=0"], stderr=log, stdout=log, env=env)
        procs.append(voxl)

        def port():
            log.seek(0)
            m = re.search(r"serving http://127\.0\.0\.1:(\d+)/", log.read())
            return int(m.group(1)) if m else None
        wait_for(lambda: port() is not None, 60, "voxl to listen")
        p = port()
        base = f"http://127.0.0.1:{p}"
        urllib.request.urlopen(base + "/screenshot").read()  # the capturer is made on first use

        # 1. Screenshots, interleaved so all three see the same machine load.
        out = os.path.join(tmp, "shot.png")
        voxl_ms, ffmpeg_ms, import_ms, server = [], [], [], []
        for _ in range(args.shots):
            voxl_ms.append(timed(["curl", "-s", "-o", out, base + "/screenshot"], env))
            ffmpeg_ms.append(timed(["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-video_size", "1920x1080",
                                    "-i", f":{n}", "-frames:v", "1", out], env))
            import_ms.append(timed(["import", "-window", "root", out], env))
        for _ in range(args.shots):
            with urllib.request.urlopen(base + "/screenshot") as r:
                body = r.read()
                m = re.match(r"grab=(\d+)us, png=(\d+)us", r.headers["X-Voxl-Timing"])
                server.append((int(m.group(1)) / 1000, int(m.group(2)) / 1000, len(body)))
        print("== /screenshot at 1920x1080 (whole command, PNG written to a file)")
        print(summary("voxl /screenshot (curl)", voxl_ms))
        print(summary("ffmpeg -f x11grab -frames:v 1", ffmpeg_ms))
        print(summary("import -window root", import_ms))
        print(f"   voxl inside: grab median {statistics.median(s[0] for s in server):.2f} ms, "
              f"PNG median {statistics.median(s[1] for s in server):.1f} ms, "
              f"PNG size {statistics.median(s[2] for s in server) / 1024:.0f} KiB")
        print(f"   ratios of medians: ffmpeg/voxl {statistics.median(ffmpeg_ms) / statistics.median(voxl_ms):.1f}x, "
              f"import/voxl {statistics.median(import_ms) / statistics.median(voxl_ms):.1f}x")

        # The PNG encoder at other settings, on the same picture.
        ppm = os.path.join(tmp, "shot.ppm")
        with open(ppm, "wb") as f:
            f.write(urllib.request.urlopen(base + "/screenshot").read())
        subprocess.run([CONVERT, "png:" + ppm, "ppm:" + ppm], check=True)
        r = subprocess.run([os.path.join(args.build, "voxl-png-bench"), ppm], check=True, capture_output=True,
                           text=True)
        print("== PNG encoder settings on that screenshot (libpng, one thread)")
        print("\n".join("   " + line for line in r.stdout.strip().splitlines()))

        # 2. /wait reaction.
        print("== /wait?change reaction (draw -> answer)")
        r = subprocess.run([os.path.join(args.build, "voxl-wait-bench"), f"--display=:{n}", f"--port={p}",
                            f"--rounds={args.wait_rounds}"], env=env, check=True, capture_output=True, text=True)
        print("   " + r.stdout.strip())

        # 3. CPU: streaming an animation to one viewer, then the same with a
        # recording running, alternated.
        demo = subprocess.Popen([os.path.join(args.build, "voxl-demo")], env=env)
        procs.append(demo)
        sink = WebSocketSink(p)
        sink.start()
        time.sleep(2)  # let the stream settle (bench pacing)
        stream_only, with_record = [], []
        for _ in range(2):
            stream_only.append(cores_over(voxl.pid, args.cpu_seconds))
            result = {}
            secs = int(args.cpu_seconds) + 3

            def record():
                with urllib.request.urlopen(f"{base}/record?seconds={secs}", timeout=secs + 60) as resp:
                    result["bytes"] = len(resp.read())
                    result["frames"] = resp.headers["X-Voxl-Frames"]
            t = threading.Thread(target=record)
            t.start()
            time.sleep(1.5)
            with_record.append(cores_over(voxl.pid, args.cpu_seconds))
            t.join()
        sink.stop()
        print("== voxl CPU (cores), voxl-demo animation at 1920x1080 streamed to one viewer")
        print(f"   streaming only:            {', '.join(f'{c:.3f}' for c in stream_only)}  "
              f"(mean {statistics.mean(stream_only):.3f})")
        print(f"   streaming + /record:       {', '.join(f'{c:.3f}' for c in with_record)}  "
              f"(mean {statistics.mean(with_record):.3f})")
        print(f"   last recording: {result.get('frames')} frames, {result.get('bytes', 0) / 1e6:.1f} MB")
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
