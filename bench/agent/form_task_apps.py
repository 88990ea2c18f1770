"""The applications of the agent task benchmark (form_task.py): the GTK form
of the tests, and a web form in Chromium or Firefox ESR whose POST reaches
a server of ours. Each starts afresh, names the steps of the task by the
role and name of the element each acts on, and says what it received."""
import http.server
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import urllib.parse

TEXT_ROLES = ("text", "entry")


class GtkForm:
    label = "GTK form"

    def __init__(self, root, env):
        self.script = os.path.join(root, "tests/stream/a11y_form.py")
        self.env = env
        self.proc = None
        self.lines = queue.Queue(maxsize=100)

    def start(self):
        self.lines = queue.Queue(maxsize=100)
        self.proc = subprocess.Popen(["/usr/bin/python3", self.script], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=self.env)
        lines, out = self.lines, self.proc.stdout
        threading.Thread(target=lambda: [lines.put(line) for line in out], daemon=True).start()

    @staticmethod
    def steps(name, email):
        return [(TEXT_ROLES, "Name", "type", name), (TEXT_ROLES, "Email", "type", email),
                ("check box", "Subscribe", "press", None), ("label", "Colour 3", "select", None),
                ("push button", "Submit", "press", None)]

    @staticmethod
    def done_text(name):
        return "Submitted: " + name

    @staticmethod
    def expected(name, email):
        return {"name": name, "email": email, "subscribed": True, "colour": "Colour 3"}

    def submitted(self, timeout):
        try:
            return json.loads(self.lines.get(timeout=timeout))
        except (queue.Empty, ValueError):
            return None

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None


PAGE = b"""<!doctype html><title>Sign up</title>
<style>body{font:16px sans-serif;margin:24px} label{display:block;margin:12px 0} input[type=text]{width:300px}</style>
<form method=post action=/submit>
<label>Name <input type=text name=name></label>
<label>Email <input type=text name=email></label>
<label><input type=checkbox name=subscribe> Subscribe</label>
<button type=submit>Submit</button>
</form>"""

FIREFOX_PREFS = """user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("accessibility.force_disabled", -1);
"""


class WebForm:
    def __init__(self, browser, env, work):
        self.browser, self.env, self.work = browser, env, work
        self.label = {"chromium": "web form, Chromium", "firefox": "web form, Firefox ESR"}[browser]
        self.posts = queue.Queue(maxsize=100)
        form = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.answer(PAGE)

            def do_POST(self):
                size = min(int(self.headers.get("Content-Length") or 0), 65536)
                fields = dict(urllib.parse.parse_qsl(self.rfile.read(size).decode()))
                try:
                    form.posts.put_nowait(fields)
                except queue.Full:
                    pass
                name = fields.get("name", "").replace("&", "&amp;").replace("<", "&lt;")
                self.answer(f"<!doctype html><title>Thanks</title><p>Thanks, {name}</p>".encode())

            def answer(self, body):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.proc, self.runs = None, 0

    def command(self, profile):
        url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        if self.browser == "chromium":
            return ["chromium", "--test-type", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                    "--force-renderer-accessibility", "--window-position=0,0", "--window-size=1280,800",
                    f"--user-data-dir={profile}"] + (["--no-sandbox"] if os.geteuid() == 0 else []) + [url]
        os.makedirs(profile, exist_ok=True)
        with open(os.path.join(profile, "user.js"), "w") as f:
            f.write(FIREFOX_PREFS)
        return ["firefox-esr", "--no-remote", "--profile", profile, "--width", "1280", "--height", "800", url]

    def start(self):
        self.runs += 1
        self.posts = queue.Queue(maxsize=100)
        self.profile = os.path.join(self.work, f"profile-{self.runs}")
        env = dict(self.env, ACCESSIBILITY_ENABLED="1", GNOME_ACCESSIBILITY="1")
        self.proc = subprocess.Popen(self.command(self.profile), env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)

    @staticmethod
    def steps(name, email):
        return [(TEXT_ROLES, "Name", "type", name), (TEXT_ROLES, "Email", "type", email),
                ("check box", "Subscribe", "press", None), ("push button", "Submit", "press", None)]

    @staticmethod
    def done_text(name):
        return "Thanks, " + name

    @staticmethod
    def expected(name, email):
        return {"name": name, "email": email, "subscribe": "on"}

    def submitted(self, timeout):
        try:
            return self.posts.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self):
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)
            self.proc = None
            shutil.rmtree(self.profile, ignore_errors=True)
