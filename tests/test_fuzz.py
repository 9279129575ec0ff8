"""Seeded fuzzing of every shipped scenario through the CLI and the Python builder.

Mutations: bit flips, random bytes, a byte-order mark, truncation, swapped values, huge or
negative numbers, wrong types and deleted keys. Goal: 0 tracebacks, 0 panics, 0 hangs,
bounded memory, and every rejection one line naming the file. The cases run in one child
process (tests/fuzz_worker.py) with an address-space limit and a per-case timeout.

The default suite runs a few hundred cases; ``NSIM_FUZZ_CASES=10000 uv run pytest
tests/test_fuzz.py`` runs more (``NSIM_FUZZ_SEED`` picks another seed, and
``NSIM_FUZZ_REPORT=counts.json`` writes the outcome counts, ``NSIM_FUZZ_WORKERS=2`` runs
two worker processes side by side).
"""

from __future__ import annotations

import collections
import copy
import json
import os
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from conftest import ROOT, SCENARIOS

CASES = int(os.environ.get("NSIM_FUZZ_CASES", "200"))
WORKERS = int(os.environ.get("NSIM_FUZZ_WORKERS", "1"))
SEED = int(os.environ.get("NSIM_FUZZ_SEED", "20261123"))
BUILDER_SHARE = 0.3
HUGE = ["10000000", "4294967296", "1e300", "99999999999999999999", "-1", "0", "1e-30", "nan", "inf"]
WRONG = ['"x"', "[1, 2]", "{ a = 1 }", "true", "-5", '"1ns"', '"25 p"', '"20"', '""']
NUMBER = re.compile(rb"\d+(\.\d+)?")
ASSIGN = re.compile(rb"^(\s*[\w\"\.\-]+\s*=\s*)(.+)$", re.M)

SOURCES = sorted(SCENARIOS.glob("*.toml"))


def _bytes_case(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One byte-level mutation of a scenario file."""
    op = rng.choice(["flip", "random_bytes", "bom", "truncate", "swap", "huge", "wrong_type", "delete_key"])
    b = bytearray(data)
    if op == "flip":
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif op == "random_bytes":
        i = rng.randrange(len(b))
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    elif op == "bom":
        b[0:0] = b"\xef\xbb\xbf"
    elif op == "truncate":
        del b[rng.randrange(len(b)):]
    else:
        lines = list(ASSIGN.finditer(bytes(b)))
        if op == "swap" and len(lines) > 1:
            m1, m2 = sorted(rng.sample(lines, 2), key=lambda m: m.start())
            v1, v2 = m1.group(2), m2.group(2)
            b[m2.start(2):m2.end(2)] = v1
            b[m1.start(2):m1.end(2)] = v2
        elif op == "huge":
            nums = list(NUMBER.finditer(bytes(b)))
            if nums:
                m = rng.choice(nums)
                b[m.start():m.end()] = rng.choice(HUGE).encode()
        elif op == "wrong_type" and lines:
            m = rng.choice(lines)
            b[m.start(2):m.end(2)] = rng.choice(WRONG).encode()
        elif op == "delete_key" and lines:
            m = rng.choice(lines)
            del b[m.start():m.end()]
    return op, bytes(b)


def _leaves(node: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every value of a nested dict/list."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in [path + (k,)] + _leaves(v, path + (k,))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in [path + (i,)] + _leaves(v, path + (i,))]
    return []


def _get(node: Any, path: tuple) -> Any:
    for p in path:
        node = node[p]
    return node


def _dict_case(rng: random.Random, config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """One structural mutation of a scenario dict (the Python builder's input)."""
    c = copy.deepcopy(config)
    paths = _leaves(c)
    op = rng.choice(["delete_key", "huge", "wrong_type", "swap"])
    path = rng.choice(paths)
    parent, key = _get(c, path[:-1]), path[-1]
    if op == "delete_key":
        del parent[key]
    elif op == "huge":
        parent[key] = rng.choice([10**7, 2**32, 2**64, 10**30, -1, 0, 1e300, float("nan"), float("inf"), "1ns", "1e12p"])
    elif op == "wrong_type":
        parent[key] = rng.choice([None, True, [1, 2], {"a": 1}, "x", "", 3.5, {"kind": "nope"}, object()])
    else:
        other = rng.choice(paths)
        if path[:len(other)] == other or other[:len(path)] == path:
            return op, c  # a value and its own ancestor: swapping would make a cycle
        try:
            a, b = _get(c, path), _get(c, other)
            parent[key], _get(c, other[:-1])[other[-1]] = b, a
        except (KeyError, IndexError, TypeError):
            pass
    return op, c


def make_cases(n: int, seed: int, tmp: Path) -> list[dict[str, Any]]:
    """``n`` seeded cases over every shipped scenario, files written under ``tmp``."""
    rng = random.Random(seed)
    texts = {p: p.read_bytes() for p in SOURCES}
    configs = {p: tomllib.loads(t.decode()) for p, t in texts.items()}
    cases = []
    for i in range(n):
        src = SOURCES[i % len(SOURCES)]
        if rng.random() < BUILDER_SHARE:
            op, config = _dict_case(rng, configs[src])
            config = _encodable(config)
            cases.append({"id": i, "kind": "builder", "op": op, "source": src.name, "config": config})
        else:
            op, data = _bytes_case(rng, texts[src])
            path = tmp / f"case{i:05d}_{src.name}"
            path.write_bytes(data)
            cases.append({"id": i, "kind": "cli", "op": op, "source": src.name, "path": str(path)})
    return cases


def _encodable(node: Any) -> Any:
    """NaN, infinities and objects as tagged strings the worker turns back into them."""
    if isinstance(node, dict):
        return {k: _encodable(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_encodable(v) for v in node]
    if isinstance(node, float) and node != node:
        return "__nan__"
    if isinstance(node, float) and node in (float("inf"), float("-inf")):
        return "__inf__"
    if not isinstance(node, (str, int, float, bool, type(None))):
        return "__object__"
    return node


def run_parallel(cases: list[dict[str, Any]], tmp: Path, workers: int) -> list[dict[str, Any]]:
    """Outcomes of ``cases`` from ``workers`` worker processes side by side."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        parts = pool.map(lambda w: run_cases(cases[w::workers], tmp, f"w{w}"), range(workers))
        return [o for part in parts for o in part]


def run_cases(cases: list[dict[str, Any]], tmp: Path, tag: str = "w") -> list[dict[str, Any]]:
    """Outcomes of ``cases`` from one worker process; if it dies, the case it was on is a
    crash and the rest run in a new worker."""
    spec = tmp / f"cases_{tag}_{cases[0]['id'] if cases else 0}.json"
    spec.write_text(json.dumps(cases), encoding="utf-8")
    p = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_worker.py"), str(spec)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60 + 10 * len(cases))
    outcomes = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    done = {o["id"] for o in outcomes}
    lost = [c for c in cases if c["id"] not in done]
    for c in lost[:1]:  # the case that killed the worker (abort, out of memory)
        outcomes.append({"id": c["id"], "op": c["op"], "source": c["source"], "kind": "crash",
                         "error": f"worker exit {p.returncode}: {p.stderr.strip()[-500:]}"})
    if lost[1:]:
        outcomes += run_cases(lost[1:], tmp, tag)
    return outcomes


def test_fuzzed_scenarios_never_crash(tmp_path: Path) -> None:
    cases = make_cases(CASES, SEED, tmp_path)
    outcomes = run_parallel(cases, tmp_path, WORKERS)
    counts = collections.Counter(o["kind"] for o in outcomes)
    unclear = [o for o in outcomes if o["kind"] == "rejected" and not o["clear"]]
    counts["rejected_unclear"] = len(unclear)
    report = {"cases": len(cases), "seed": SEED, "counts": dict(sorted(counts.items())),
              "by_op": {op: dict(collections.Counter(o["kind"] for o in outcomes if o["op"] == op))
                        for op in sorted({o["op"] for o in outcomes})}}
    if os.environ.get("NSIM_FUZZ_REPORT"):
        Path(os.environ["NSIM_FUZZ_REPORT"]).write_text(json.dumps(report, indent=2), encoding="utf-8")
    bad = [o for o in outcomes if o["kind"] not in ("ok", "rejected")] + unclear
    assert len(outcomes) == len(cases)
    assert not bad, f"{report}\nfirst problems: {json.dumps(bad[:5], indent=1)}"
    bom = [o for o in outcomes if o["op"] == "bom"]
    assert all(o["kind"] == "ok" for o in bom), "a byte-order mark is accepted"
    assert counts["ok"] > 0 and counts["rejected"] > 0
