#!/usr/bin/env python3
"""The agent task benchmark: a scripted agent (a fixed plan, no model) fills
a form and submits it, three ways, on one voxl with its private Xvfb and
accessibility bus:

  coordinates  what agent demos do over noVNC or e2b: each step an input
               event at fixed coordinates, a fixed sleep, a screenshot
  computer     each step one POST /computer at the same coordinates,
               answered with the settled screenshot (no sleep)
  a11y         one GET /a11y, then POST /a11y/act on the elements by role
               and name, and one POST /a11y/find to read the outcome; no
               screenshot at all

The forms: the GTK form of the tests (tests/stream/a11y_form.py: name,
email, a check box, a colour from a list, Submit), and a web page in
Chromium or Firefox ESR (name, email, a check box, Submit posting to a
server of this script's). Success is what the application itself received:
the GTK form prints what was submitted; the web form's POST reaches this
script. The coordinates of the first two ways are read once from the tree
before the runs, as a person reads them off a screenshot when writing the
plan. The application starts afresh for every run; its start is not timed.

Per way: wall time of the task (median and p90), HTTP calls, successes,
and the bytes of the requests' and answers' bodies.

    bench/agent/form_task.py --build build/release [--runs 20] [--apps gtk,chromium,firefox] [--sleep 2]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from form_task_apps import GtkForm, WebForm  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME, EMAIL = "Ada Lovelace", "ada@example.org"


class Client:
    """voxl's HTTP API on one kept-alive connection, counting calls and bytes."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.reset()

    def reset(self):
        self.calls, self.bytes, self.screenshots = 0, 0, 0

    def __call__(self, method, path, body=None, counted=True):
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data,
                                  headers={"Content-Type": "application/json"} if data else {})
                answer = self.conn.getresponse()
                payload = answer.read()
                break
            except (http.client.HTTPException, ConnectionError):
                if attempt:
                    raise
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        if counted:
            self.calls += 1
            self.bytes += len(payload) + len(data or b"")
        if answer.status != 200:
            raise RuntimeError(f"{method} {path} answered {answer.status}: {payload[:300]!r}")
        return payload

    def json(self, method, path, body=None, counted=True):
        return json.loads(self(method, path, body, counted))


def each_node(nodes):
    for n in nodes:
        yield n
        yield from each_node(n.get("children", []))


def element(tree, role, name):
    """The first element of that role whose name is `name` (roles: a list)."""
    roles = role if isinstance(role, (list, tuple)) else [role]
    for n in each_node(tree["tree"]):
        if n.get("role") in roles and n.get("name") == name:
            return n
    return None


def centre(node):
    b = node["bounds"]
    return b["x"] + b["width"] // 2, b["y"] + b["height"] // 2


def plan_steps(app, tree):
    """The task as steps (kind, element, text): the same steps every way."""
    steps = []
    for role, name, kind, text in app.steps(NAME, EMAIL):
        node = element(tree, role, name)
        if node is None:
            raise RuntimeError(f"no {role} named {name!r} in the tree")
        steps.append((kind, node, text))
    return steps


def by_coordinates(client, steps, sleep):
    for kind, node, text in steps:
        x, y = centre(node)
        if kind == "type":
            client("POST", "/input", {"type": "click", "x": x, "y": y})
            time.sleep(sleep)
            client("GET", "/screenshot")
            client.screenshots += 1
            client("POST", "/input", {"type": "type", "text": text})
        else:
            client("POST", "/input", {"type": "click", "x": x, "y": y})
        time.sleep(sleep)
        client("GET", "/screenshot")
        client.screenshots += 1


def by_computer(client, steps, _sleep):
    for kind, node, text in steps:
        x, y = centre(node)
        answer = client.json("POST", "/computer?screenshot=1", {"action": "left_click", "coordinate": [x, y]})
        client.screenshots += "screenshot" in answer
        if kind == "type":
            answer = client.json("POST", "/computer?screenshot=1", {"action": "type", "text": text})
            client.screenshots += "screenshot" in answer


def by_a11y(client, app, _sleep):
    tree = client.json("GET", "/a11y")
    for kind, node, text in plan_steps(app, tree):
        action = {"type": {"action": "set_text", "text": text}, "press": {"action": "click"},
                  "select": {"action": "select"}}[kind]
        answer = client.json("POST", "/a11y/act", dict(action, id=node["id"]))
        client.screenshots += "screenshot" in answer
    # The outcome, read as the agent would check it.
    found = client.json("POST", "/a11y/find", {"text": app.done_text(NAME), "scope": "desktop"})
    if not found["matches"]:
        raise RuntimeError("the form never said it was submitted")


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def start_voxl(build, size):
    voxl = subprocess.Popen([os.path.join(build, "voxl"), f"--xvfb={size}", "--a11y", "--addr=127.0.0.1", "--port=0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log, deadline, m = "", time.monotonic() + 60, None
    while not m and time.monotonic() < deadline:
        line = voxl.stdout.readline()
        if not line:
            break
        log += line
        m = re.search(r"voxl is serving http://[^:]+:(\d+)/? \(display (:\d+)\)", log)
    if not m:
        voxl.kill()
        sys.exit("voxl did not start:\n" + log)
    env = dict(os.environ, DISPLAY=m.group(2))
    cookie = re.search(r"admitting only holders of its cookie \((\S+)\)", log)
    if cookie:
        env["XAUTHORITY"] = cookie.group(1)
    return voxl, int(m.group(1)), env


def wait_ready(client, app, limit=90):
    """Until the form is in the tree and the screen has been still for 0.5 s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = client.json("POST", "/a11y/find", {"role": "push button", "name": "Submit", "exact": True}, counted=False)
        if found["matches"] and found["matches"][0].get("in_picture"):
            client("GET", "/wait?idle=500&timeout=20000", counted=False)
            return client.json("GET", "/a11y", counted=False)
        time.sleep(0.2)  # the application is starting: nothing to wait on but its tree
    raise RuntimeError(f"{app.label} never showed its form")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="build directory with voxl")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--apps", default="gtk,chromium", help="gtk, chromium, firefox")
    ap.add_argument("--ways", default="coordinates,computer,a11y")
    ap.add_argument("--sleep", type=float, default=2.0, help="the coordinates way's sleep after each step, s")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--json", help="write every run's figures here")
    args = ap.parse_args()
    ways = {"coordinates": by_coordinates, "computer": by_computer, "a11y": by_a11y}
    records = []
    for app_name in args.apps.split(","):
        voxl, port, env = start_voxl(args.build, args.size)
        work = tempfile.mkdtemp(prefix="voxl-form-task-")
        app = GtkForm(ROOT, env) if app_name == "gtk" else WebForm(app_name, env, work)
        client = Client(port)
        try:
            app.start()
            steps = plan_steps(app, wait_ready(client, app))  # the plan's coordinates, read once
            app.stop()
            for run in range(args.runs):
                for way in args.ways.split(","):
                    app.start()
                    wait_ready(client, app)
                    client.reset()
                    error = None
                    t0 = time.perf_counter()
                    try:
                        ways[way](client, app if way == "a11y" else steps, args.sleep)
                    except Exception as e:  # a failed run is counted, not fatal
                        error = str(e)
                    took = time.perf_counter() - t0
                    got = app.submitted(timeout=10)
                    ok = error is None and got == app.expected(NAME, EMAIL)
                    records.append(dict(app=app.label, way=way, run=run, seconds=took, calls=client.calls,
                                        bytes=client.bytes, screenshots=client.screenshots, ok=ok,
                                        error=error, got=got))
                    app.stop()
                    if not ok:
                        print(f"  {app.label} {way} run {run}: failed ({error or got})", flush=True)
        finally:
            app.stop()
            client.conn.close()
            voxl.terminate()
            voxl.wait(timeout=30)
            shutil.rmtree(work, ignore_errors=True)
        report(records, app.label, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    return 0


def report(records, label, args):
    print(f"\n{label}, {args.runs} runs each, voxl --xvfb={args.size} --a11y, coordinates with {args.sleep:g} s sleeps")
    print(f"{'way':<12} {'median s':>9} {'p90 s':>7} {'calls':>6} {'shots':>6} {'kB moved':>9} {'success':>8}")
    medians = {}
    for way in args.ways.split(","):
        rs = [r for r in records if r["app"] == label and r["way"] == way]
        if not rs:
            continue
        secs = [r["seconds"] for r in rs]
        medians[way] = statistics.median(secs)
        print(f"{way:<12} {medians[way]:>9.2f} {pct(secs, 0.9):>7.2f} {statistics.median(r['calls'] for r in rs):>6.0f} "
              f"{statistics.median(r['screenshots'] for r in rs):>6.0f} "
              f"{statistics.median(r['bytes'] for r in rs) / 1000:>9.1f} {sum(r['ok'] for r in rs):>5}/{len(rs)}")
    if "a11y" in medians:
        for way in medians:
            if way != "a11y":
                print(f"a11y is {medians[way] / medians['a11y']:.1f}x faster than {way} (medians)")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
