"""Seeded fuzzing of the Python API and of sweep files with bad arguments (issue 29 item 10):
wrong types, huge and negative integers, NaN and infinities, bytes, objects, a table that
contains itself. Every rejection must be a ScenarioError (or ResultsError), never a
TypeError, OverflowError, RecursionError or a bare ValueError. ``NSIM_FUZZ_API_CASES``
raises the count (default 2,000 API calls and 300 sweep files)."""

from __future__ import annotations

import collections
import os
import random
from pathlib import Path
from typing import Any, Callable

import nsim
from nsim.errors import ResultsError, ScenarioError
from nsim.sweeps import load_sweep

CASES = int(os.environ.get("NSIM_FUZZ_API_CASES", "2000"))
SEED = int(os.environ.get("NSIM_FUZZ_SEED", "20261128"))


def _bad_values() -> list[Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    listed: list[Any] = []
    listed.append(listed)
    return [None, True, -1, 0, 2**70, -(2**70), 2**64, float("nan"), float("inf"), -0.0, 1e300, "", "x", "10",
            "10Mbx", "-1s", b"bytes", [], [1], {}, {"a": 1}, object(), 3 + 4j, "1e999s", "nan", "10\n", (1, 2),
            loop, listed]


def _base() -> nsim.Scenario:
    sc = nsim.Scenario("t", duration="0.2s")
    sc.hosts("a", "b")
    sc.link("a", "b", rate="1Mb", delay="1ms")
    sc.flow("a", "b", app=nsim.app("cbr", rate="100kb"))
    return sc


def _empty(**kw: Any) -> nsim.Scenario:
    return nsim.Scenario(**{"name": "t", "duration": "0.1s", **kw})


def _two_hosts(sc: nsim.Scenario, **link: Any) -> nsim.Scenario:
    sc.hosts("a", "b")
    sc.link("a", "b", **{"rate": "1Mb", "delay": "1ms", **link})
    return sc


CALLS: list[tuple[str, Callable[[Any], Any]]] = [
    ("run.seed", lambda v: _base().run(seed=v)),
    ("run.until", lambda v: _base().run(until=v)),
    ("run.progress", lambda v: _base().run(progress=v)),
    ("run.limits", lambda v: _base().run(limits=v)),
    ("run.trace", lambda v: _base().run(trace=v)),
    ("Scenario.name", lambda v: _two_hosts(_empty(name=v)).flow("a", "b", app=nsim.app("cbr", rate="1kb")).run()),
    ("Scenario.duration", lambda v: _two_hosts(_empty(duration=v)).flow("a", "b", app=nsim.app("cbr", rate="1kb")).run()),
    ("Scenario.seed", lambda v: _two_hosts(_empty(seed=v)).flow("a", "b", app=nsim.app("cbr", rate="1kb")).run()),
    ("link.rate", lambda v: _two_hosts(_empty(), rate=v).validate()),
    ("link.delay", lambda v: _two_hosts(_empty(), delay=v).validate()),
    ("hosts", lambda v: _empty().hosts(v).validate()),
    ("flow.app", lambda v: _base().flow("a", "b", app=v).validate()),
    ("flow.repeat", lambda v: _base().flow("a", "b", app=nsim.app("cbr", rate="1kb"), repeat=v).validate()),
    ("app.rate", lambda v: _base().flow("a", "b", app=nsim.app("cbr", rate=v)).validate()),
    ("queue.kind", lambda v: _two_hosts(_empty(), queue=nsim.queue(v)).validate()),
    ("queue.limit", lambda v: _two_hosts(_empty(), queue=nsim.queue("droptail", limit=v)).validate()),
    ("record.series", lambda v: _base().record(series=v).validate()),
    ("record.interval", lambda v: _base().record(series=["queue"], interval=v).validate()),
    ("from_dict", lambda v: nsim.Scenario.from_dict(v).validate()),
    ("from_dict.run", lambda v: nsim.Scenario.from_dict({**_base().to_dict(), "seed": v}).run()),
    ("dumbbell.pairs", lambda v: _empty().dumbbell(v, {"rate": "1Mb", "delay": "1ms"},
                                                   {"rate": "10Mb", "delay": "1ms"}).validate()),
    ("nsim.run", lambda v: nsim.run(v)),
    ("nsim.load", lambda v: nsim.load(v)),
]


def test_bad_python_arguments_raise_scenario_errors(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)  # a string `trace` is a valid path: its files land here
    rng = random.Random(SEED)
    values = _bad_values()
    escaped: collections.Counter[tuple[str, str]] = collections.Counter()
    example: dict[tuple[str, str], str] = {}
    rejected = 0
    for _ in range(CASES):
        name, call = rng.choice(CALLS)
        value = rng.choice(values)
        try:
            call(value)
        except (ScenarioError, ResultsError):
            rejected += 1
        except Exception as e:  # noqa: BLE001 (what this test looks for)
            key = (name, type(e).__name__)
            escaped[key] += 1
            example.setdefault(key, f"{value!r:.40} -> {e!s:.120}")
    assert not escaped, "\n".join(f"{n} x {k}: {example[k]}" for k, n in escaped.most_common())
    assert rejected > CASES // 2  # the values are bad: most calls must be refused


SWEEP_LINES = ['seeds = {v}', 'name = {v}', 'metrics = {v}', '[grid]\n"links[0].rate" = {v}',
               '[grid]\n"links[9].rate" = ["1Mb"]', '[grid]\n{v} = ["1Mb"]', 'scenario = {v}', 'grid = {v}']
TOML_VALUES = ['3', '-1', '0', '99999999999999999999', 'nan', 'inf', '"x"', '""', '[]', '[1, 1]', '[true]',
               '{ a = 1 }', '"../../x"', '"/abs"', '["1Mx"]', '[1e300]', 'true', '"a b"', '[[1]]']


def test_fuzzed_sweep_files_raise_scenario_errors(tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(_base_toml())
    escaped = []
    for i in range(max(300, CASES // 7)):
        lines = ['scenario = "scenario.toml"'] + [rng.choice(SWEEP_LINES).format(v=rng.choice(TOML_VALUES))
                                                 for _ in range(rng.randint(1, 3))]
        f = tmp_path / f"s{i}.toml"
        f.write_text("\n".join(lines) + "\n")
        try:
            load_sweep(f)
        except (ScenarioError, ResultsError):
            pass
        except Exception as e:  # noqa: BLE001
            escaped.append(f"{f.read_text()!r}: {type(e).__name__}: {e}")
    assert not escaped, "\n".join(escaped[:5])


def _base_toml() -> str:
    return ('name = "t"\nduration = "0.2s"\nhosts = ["a", "b"]\n[[links]]\nbetween = ["a", "b"]\nrate = "1Mb"\n'
            'delay = "1ms"\n[[flows]]\nfrom = "a"\nto = "b"\napp = { kind = "cbr", rate = "100kb" }\n')
