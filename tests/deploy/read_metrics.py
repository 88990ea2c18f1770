#!/usr/bin/python3
"""Reads a Prometheus text exposition with prometheus_client's own parser
and prints one line per sample, "name{k=v,...} value" with the labels
sorted, after "family <name> <type>" lines. Exits 1 with the parser's
complaint when the text does not parse, and 2 when a family repeats (the
format wants each family's samples together).

    read_metrics.py FILE
"""
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    seen = set()
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser raises ValueError and others
        print(f"parse error: {e}", file=sys.stderr)
        return 1
    for fam in families:
        if fam.name in seen:
            print(f"family {fam.name} appears twice", file=sys.stderr)
            return 2
        seen.add(fam.name)
        print(f"family {fam.name} {fam.type}")
        for s in fam.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            print(f"{s.name}{{{labels}}} {s.value!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
