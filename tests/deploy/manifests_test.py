#!/usr/bin/python3
"""The container and Kubernetes files, read as a deployer's tools would:
every manifest parses as YAML and carries what a desktop needs (one pod,
probes on /healthz and /readyz, a non-root read-only container, the token
from a Secret, a Service and an Ingress that reach it, a NetworkPolicy that
selects it), and the Dockerfile builds on Debian 12, runs as a user and
checks its health. No cluster or container engine runs here.

    manifests_test.py REPO
"""
import pathlib
import sys
import unittest

import yaml

REPO = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else ".").resolve()
KUBE = REPO / "deploy" / "kubernetes"


def load(name):
    docs = [d for d in yaml.safe_load_all((KUBE / name).read_text()) if d is not None]
    assert len(docs) == 1, f"{name}: one object per file"
    doc = docs[0]
    for key in ("apiVersion", "kind", "metadata"):
        assert key in doc, f"{name}: no {key}"
    assert doc["metadata"].get("name"), f"{name}: no metadata.name"
    return doc


class Manifests(unittest.TestCase):
    def setUp(self):
        self.deployment = load("deployment.yaml")
        self.service = load("service.yaml")
        self.ingress = load("ingress.yaml")
        self.policy = load("networkpolicy.yaml")
        self.secret = load("secret.example.yaml")
        self.pod = self.deployment["spec"]["template"]["spec"]
        self.container = self.pod["containers"][0]
        self.labels = self.deployment["spec"]["template"]["metadata"]["labels"]

    def test_every_file_is_known_and_parses(self):
        names = sorted(p.name for p in KUBE.glob("*.yaml"))
        self.assertEqual(names, ["deployment.yaml", "ingress.yaml", "networkpolicy.yaml", "secret.example.yaml",
                                 "service.yaml"])
        kinds = [load(n)["kind"] for n in names]
        self.assertEqual(kinds, ["Deployment", "Ingress", "NetworkPolicy", "Secret", "Service"])

    def test_one_desktop_per_pod_and_its_selector_matches(self):
        spec = self.deployment["spec"]
        self.assertEqual(spec["replicas"], 1)
        self.assertEqual(spec["strategy"]["type"], "Recreate")
        for k, v in spec["selector"]["matchLabels"].items():
            self.assertEqual(self.labels.get(k), v)

    def test_probes_on_healthz_and_readyz(self):
        c = self.container
        port_names = {p["name"] for p in c["ports"]}
        self.assertEqual(c["livenessProbe"]["httpGet"]["path"], "/healthz")
        self.assertEqual(c["startupProbe"]["httpGet"]["path"], "/healthz")
        self.assertEqual(c["readinessProbe"]["httpGet"]["path"], "/readyz")
        for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
            self.assertIn(c[probe]["httpGet"]["port"], port_names)
        self.assertEqual([p["containerPort"] for p in c["ports"]], [6901])

    def test_resources_and_a_locked_down_container(self):
        c = self.container
        for part in ("requests", "limits"):
            self.assertIn("cpu", c["resources"][part])
            self.assertIn("memory", c["resources"][part])
        sc = c["securityContext"]
        self.assertTrue(sc["readOnlyRootFilesystem"])
        self.assertFalse(sc["allowPrivilegeEscalation"])
        self.assertEqual(sc["capabilities"]["drop"], ["ALL"])
        self.assertTrue(self.pod["securityContext"]["runAsNonRoot"])
        self.assertNotEqual(self.pod["securityContext"]["runAsUser"], 0)
        self.assertFalse(self.pod["automountServiceAccountToken"])
        # A read-only root needs somewhere to write: Xvfb's socket and the files root.
        mounts = {m["mountPath"] for m in c["volumeMounts"]}
        self.assertIn("/tmp", mounts)
        self.assertIn("/home/voxl", mounts)
        volumes = {v["name"] for v in self.pod["volumes"]}
        self.assertEqual({m["name"] for m in c["volumeMounts"]}, volumes)

    def test_the_token_comes_from_the_secret(self):
        env = {e["name"]: e for e in self.container["env"]}
        ref = env["VOXL_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"]
        self.assertEqual(ref["name"], self.secret["metadata"]["name"])
        self.assertIn(ref["key"], self.secret["stringData"])
        for name in env:
            self.assertTrue(name.startswith("VOXL_"), name)

    def test_the_service_and_ingress_reach_the_pod(self):
        svc = self.service["spec"]
        for k, v in svc["selector"].items():
            self.assertEqual(self.labels.get(k), v)
        self.assertEqual(svc["ports"][0]["targetPort"], "http")
        paths = self.ingress["spec"]["rules"][0]["http"]["paths"]
        backend = paths[0]["backend"]["service"]
        self.assertEqual(backend["name"], self.service["metadata"]["name"])
        self.assertEqual(backend["port"]["name"], svc["ports"][0]["name"])
        notes = self.ingress["metadata"]["annotations"]
        # A stream lives for hours and must not be buffered.
        self.assertGreaterEqual(int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]), 3600)
        self.assertEqual(notes["nginx.ingress.kubernetes.io/proxy-buffering"], "off")
        self.assertTrue(self.ingress["spec"]["tls"])

    def test_the_network_policy_selects_the_pod(self):
        spec = self.policy["spec"]
        for k, v in spec["podSelector"]["matchLabels"].items():
            self.assertEqual(self.labels.get(k), v)
        self.assertEqual(spec["policyTypes"], ["Ingress"])
        self.assertTrue(spec["ingress"][0]["from"])


class Dockerfile(unittest.TestCase):
    def setUp(self):
        self.lines = [l.strip() for l in (REPO / "deploy/container/Dockerfile").read_text().splitlines()]
        self.instructions = [l.split()[0] for l in self.lines if l and not l.startswith("#") and l.split()[0].isupper()]

    def test_debian_12_a_user_a_health_check_and_voxl_as_the_command(self):
        froms = [l for l in self.lines if l.startswith("FROM ")]
        self.assertTrue(all(" debian:12" in f for f in froms), froms)
        self.assertEqual(froms[-1].split()[1], "debian:12-slim")
        users = [l.split()[1] for l in self.lines if l.startswith("USER ")]
        self.assertTrue(users and users[-1] not in ("root", "0"), users)
        self.assertIn("HEALTHCHECK", self.instructions)
        self.assertTrue(any("/healthz" in l for l in self.lines))
        self.assertTrue(any(l.startswith("ENTRYPOINT") and "voxl" in l for l in self.lines))
        self.assertIn("EXPOSE", self.instructions)

    def test_the_extra_packages_are_listed(self):
        packages = [l for l in (REPO / "deploy/container/packages").read_text().splitlines()
                    if l and not l.startswith("#")]
        self.assertEqual(packages, ["curl"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
