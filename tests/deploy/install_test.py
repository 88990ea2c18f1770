#!/usr/bin/python3
"""cmake --install into a scratch root, as a packager would: the binary, the
man page made from --help (it names every flag, and man renders it), the
systemd units with the installed paths filled in (systemd-analyze finds
nothing to complain about), and the settings file, readable by its owner
only.

    install_test.py BUILD_DIR
"""
import gzip
import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

BUILD = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else "build/dev").resolve()


class Install(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="voxl-install-")
        cls.root = pathlib.Path(cls.tmp.name)
        env = dict(os.environ, DESTDIR=str(cls.root))
        subprocess.run(["cmake", "--install", str(BUILD), "--prefix", "/usr"], env=env, check=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_binary_runs(self):
        voxl = self.root / "usr/bin/voxl"
        self.assertTrue(os.access(voxl, os.X_OK))
        out = subprocess.run([voxl, "--version"], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"^voxl \d+\.\d+\.\d+")

    def test_the_man_page_is_made_from_help_and_renders(self):
        page = self.root / "usr/share/man/man1/voxl.1.gz"
        text = gzip.decompress(page.read_bytes()).decode()
        self.assertIn(".TH VOXL", text)
        help_text = subprocess.run([self.root / "usr/bin/voxl", "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
        flags = set(re.findall(r"(--[a-z][a-z0-9-]+)", help_text))
        self.assertGreater(len(flags), 40)
        for flag in sorted(flags):
            self.assertIn(flag.replace("-", "\\-"), text, flag)
        if shutil.which("man"):
            shown = subprocess.run(["man", "-l", "-P", "cat", str(page)], capture_output=True, text=True,
                                   timeout=60, env=dict(os.environ, MANWIDTH="100"))
            self.assertEqual(shown.returncode, 0, shown.stderr)
            self.assertIn("--trusted-proxies", shown.stdout.replace("‐", "-"))

    def unit(self, relative):
        text = (self.root / relative).read_text()
        self.assertNotIn("@", text.replace("%", ""), "every @VAR@ is filled in")
        self.assertIn("ExecStart=/usr/bin/voxl", text)
        self.assertIn("Type=notify", text)
        return text

    def verify(self, text, name):
        """systemd-analyze verify on a copy whose binary is the one installed here."""
        if not shutil.which("systemd-analyze"):
            self.skipTest("no systemd-analyze")
        with tempfile.TemporaryDirectory() as d:
            copy = pathlib.Path(d) / name
            copy.write_text(text.replace("/usr/bin/voxl", str(self.root / "usr/bin/voxl")))
            # Documentation=man:voxl(1) is looked up too: in the page installed here.
            env = dict(os.environ, MANPATH=str(self.root / "usr/share/man"))
            out = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True,
                                 timeout=60, env=env)
            problems = [l for l in out.stderr.splitlines() if str(copy) in l or "voxl.service" in l]
            self.assertEqual(problems, [], out.stderr)

    def test_the_system_unit(self):
        text = self.unit("usr/lib/systemd/system/voxl.service")
        for hardening in ("NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "DynamicUser=yes"):
            self.assertIn(hardening, text)
        self.assertIn("EnvironmentFile=-/etc/voxl/voxl.env", text)
        self.verify(text, "voxl.service")

    def test_the_user_unit(self):
        text = self.unit("usr/lib/systemd/user/voxl.service")
        self.assertIn("EnvironmentFile=-%h/.config/voxl/voxl.env", text)
        self.assertIn("NoNewPrivileges=yes", text)
        self.verify(text, "voxl-user.service")

    def test_the_settings_file_is_for_its_owner_only(self):
        env = self.root / "etc/voxl/voxl.env"
        mode = stat.S_IMODE(env.stat().st_mode)
        self.assertEqual(mode & 0o077, 0, oct(mode))
        names = re.findall(r"^#?(VOXL_[A-Z_]+)=", env.read_text(), re.M)
        self.assertIn("VOXL_AUTH_TOKEN", names)
        help_text = subprocess.run([self.root / "usr/bin/voxl", "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
        for name in names:  # each names a real flag
            flag = "--" + name[5:].lower().replace("_", "-")
            self.assertIn(flag, help_text, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
