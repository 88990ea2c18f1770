#!/usr/bin/python3
"""What a service manager sees of the real binary: voxl --check-config says
whether flags, environment and files are right without starting anything,
and under Type=notify voxl says READY=1 (with the address in STATUS=) once
it serves, when /healthz and /readyz answer, and STOPPING=1 on SIGTERM
before it exits cleanly.

    service_test.py VOXL_BINARY
"""
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import tempfile
import unittest
import urllib.request

VOXL = sys.argv.pop(1) if len(sys.argv) > 1 else "build/dev/voxl"
# Under ASan a leak report after exit would add noise to stderr.
BASE_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("VOXL_", "SELKIES_"))}
BASE_ENV["ASAN_OPTIONS"] = "detect_leaks=0"
BASE_ENV.pop("DISPLAY", None)


def check(args, env=None, cwd=None):
    return subprocess.run([VOXL, "--check-config", *args], capture_output=True, text=True, timeout=60,
                          env=dict(BASE_ENV, **(env or {})), cwd=cwd)


class CheckConfig(unittest.TestCase):
    def test_a_valid_configuration_is_summed_up(self):
        r = check(["--addr=127.0.0.1", "--port=7000"], env={"VOXL_MAX_KBPS": "5000", "SELKIES_FRAMERATE": "30"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("the configuration is valid", r.stdout)
        self.assertIn("listen: http://127.0.0.1:7000/", r.stdout)
        self.assertIn("from the environment: SELKIES_FRAMERATE VOXL_MAX_KBPS", r.stdout)

    def test_a_bad_variable_is_named(self):
        r = check([], env={"VOXL_PORT": "seventy"})
        self.assertEqual(r.returncode, 2)
        self.assertIn("$VOXL_PORT (--port)", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_a_certificate_and_a_key_that_do_not_belong_together(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("a", "b"):
                subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                                "/CN=localhost", "-keyout", f"{d}/{name}.key", "-out", f"{d}/{name}.crt"],
                               check=True, capture_output=True, timeout=120)
            good = check(["--enable-https", f"--https-cert={d}/a.crt", f"--https-key={d}/a.key"])
            self.assertEqual(good.returncode, 0, good.stderr)
            self.assertIn("listen: https://", good.stdout)
            bad = check(["--enable-https", f"--https-cert={d}/a.crt", f"--https-key={d}/b.key"])
            self.assertEqual(bad.returncode, 2, bad.stdout)
            self.assertIn("--https-key", bad.stderr)
            garbage = pathlib.Path(d) / "garbage.crt"
            garbage.write_text("not a certificate\n")
            worse = check(["--enable-https", f"--https-cert={garbage}", f"--https-key={d}/a.key"])
            self.assertEqual(worse.returncode, 2)
            self.assertIn("--https-cert", worse.stderr)

    def test_a_files_root_that_is_not_a_folder(self):
        with tempfile.NamedTemporaryFile() as f:
            r = check([f"--files-root={f.name}"])
            self.assertEqual(r.returncode, 2)
            self.assertIn("--files-root", r.stderr)


class Notify(unittest.TestCase):
    def test_ready_once_serving_and_stopping_on_sigterm(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "notify")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(path)
            sock.settimeout(90)
            proc = subprocess.Popen([VOXL, "--xvfb=320x240", "--addr=127.0.0.1", "--port=0"],
                                    env=dict(BASE_ENV, NOTIFY_SOCKET=path), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            try:
                message = sock.recv(4096).decode()
                self.assertIn("READY=1", message.splitlines())
                m = re.search(r"STATUS=serving (http://127\.0\.0\.1:(\d+)/) \(display :\d+\)", message)
                self.assertIsNotNone(m, message)
                for path_, body in (("healthz", "ok\n"), ("readyz", "ready\n")):
                    with urllib.request.urlopen(m.group(1) + path_, timeout=30) as r:
                        self.assertEqual(r.status, 200)
                        self.assertEqual(r.read().decode(), body)
                proc.send_signal(signal.SIGTERM)
                self.assertIn("STOPPING=1", sock.recv(4096).decode().splitlines())
                self.assertEqual(proc.wait(timeout=60), 0)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                proc.stderr.close()
                sock.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
