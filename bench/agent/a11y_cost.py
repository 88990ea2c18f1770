#!/usr/bin/env python3
"""What GET /a11y and POST /a11y/find cost: the active window's tree of a
Chromium window showing a page of 100 labelled fields and 100 buttons, and
of a GTK window of 25 labels, 25 fields and 25 buttons, each on voxl's
private Xvfb with --a11y, asked --requests times after the application is
up. Prints the median, the fastest and the slowest, and the elements.

    bench/agent/a11y_cost.py --build build/release [--requests 15] [--apps gtk,chromium]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from form_task import Client, start_voxl  # noqa: E402

GTK_WINDOW = """import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
w = Gtk.Window(title="widgets")
grid = Gtk.Grid()
w.add(grid)
for i in range(25):
    grid.attach(Gtk.Label(label="Label %d" % i), 0, i, 1, 1)
    e = Gtk.Entry()
    e.get_accessible().set_name("Field %d" % i)
    grid.attach(e, 1, i, 1, 1)
    grid.attach(Gtk.Button(label="Button %d" % i), 2, i, 1, 1)
w.connect("destroy", Gtk.main_quit)
w.show_all()
Gtk.main()
"""


def page():
    rows = "".join(f"<label>Field {i} <input name=f{i}></label><button>Button {i}</button><br>" for i in range(100))
    return f"<!doctype html><title>Many</title><body>{rows}</body>"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--requests", type=int, default=15)
    ap.add_argument("--apps", default="gtk,chromium")
    args = ap.parse_args()
    for app in args.apps.split(","):
        work = tempfile.mkdtemp(prefix="voxl-a11y-cost-")
        voxl, port, env = start_voxl(args.build, "1280x1024")
        if app == "gtk":
            path = os.path.join(work, "widgets.py")
            with open(path, "w") as f:
                f.write(GTK_WINDOW)
            command, ready = ["/usr/bin/python3", path], "Button 24"
        else:
            path = os.path.join(work, "many.html")
            with open(path, "w") as f:
                f.write(page())
            command = ["chromium", "--test-type", "--no-first-run", "--disable-gpu", "--force-renderer-accessibility",
                       "--window-position=0,0", "--window-size=1280,1024", f"--user-data-dir={work}/profile",
                       f"file://{path}"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
            ready = "Button 99"
        proc = subprocess.Popen(command, env=dict(env, ACCESSIBILITY_ENABLED="1"), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        client = Client(port)
        try:
            deadline = time.monotonic() + 120
            while not client.json("POST", "/a11y/find", {"name": ready, "scope": "desktop"})["matches"]:
                if time.monotonic() > deadline:
                    sys.exit(f"{app}: the window never showed in the tree")
                time.sleep(0.2)  # the application is starting: nothing to wait on but its tree
            client("GET", "/wait?idle=500&timeout=20000")
            for what, call in (("GET /a11y", lambda: client.json("GET", "/a11y")),
                               ("POST /a11y/find", lambda: client.json("POST", "/a11y/find", {"name": ready}))):
                ms, answer = [], None
                for _ in range(args.requests):
                    t0 = time.perf_counter()
                    answer = call()
                    ms.append((time.perf_counter() - t0) * 1000)
                elements = answer.get("searched") or answer.get("nodes")
                print(f"{app:<9} {what:<16} {elements} elements  median {statistics.median(ms):6.1f} ms  "
                      f"fastest {min(ms):6.1f}  slowest {max(ms):6.1f}  ({args.requests} requests)", flush=True)
        finally:
            os.killpg(proc.pid, 15)
            proc.wait(timeout=30)
            voxl.terminate()
            voxl.wait(timeout=30)
            subprocess.run(["rm", "-rf", work])
    return 0


if __name__ == "__main__":
    sys.exit(main())
