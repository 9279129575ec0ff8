"""Sweeps on the real simulator: local pool and Dask give the same table, a killed worker
loses and duplicates nothing, an interrupted sweep resumes with only what is missing, and a
failing run is recorded without losing the others."""

import gzip
import json
import os
import signal
import textwrap

import pandas as pd
import pytest

import nsim
from nsim.sweeps import CACHE_SUFFIX, SweepSpec, load_sweep, set_axis, set_path, sweep

LIMIT = "dumbbell.bottleneck.queue.limit"

SCENARIO = """\
name = "sweep test"
duration = "{duration}"
seed = 1

[dumbbell]
pairs = 2
bottleneck = {{ rate = "2Mb", delay = "10ms", queue = {{ kind = "droptail", limit = "10p" }} }}
access = {{ rate = "10Mb", delay = "1ms" }}

[[flows]]
name = "cbr{{i}}"
repeat = 2
from = "s{{i}}"
to = "d{{i}}"
app = {{ kind = "cbr", rate = "{rate}", size = "500B", jitter = 0.5 }}
"""


def spec_for(tmp_path, limits=("5p", "20p"), seeds=(1, 2, 3), duration="1s", rate="1.2Mb"):
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO.format(duration=duration, rate=rate))
    return SweepSpec(nsim.load(path).to_dict(), {LIMIT: list(limits)}, list(seeds))


# -- no simulator needed ------------------------------------------------------------------

def test_set_path_creates_tables_and_indexes_lists():
    d = {"flows": [{"app": {"rate": "1Mb"}}]}
    set_path(d, "flows[0].app.rate", "2Mb")
    set_path(d, "dumbbell.bottleneck.queue.limit", "5p")
    assert d == {"flows": [{"app": {"rate": "2Mb"}}],
                 "dumbbell": {"bottleneck": {"queue": {"limit": "5p"}}}}
    with pytest.raises(ValueError, match="out of range"):
        set_path(d, "flows[3].app.rate", "1Mb")
    with pytest.raises(ValueError, match="malformed"):
        set_path(d, "flows..app", 1)


def test_set_path_every_element_of_a_list():
    d = {"flows": [{"transport": {"tick": "200ms"}}, {"transport": {}}, {"app": {}}]}
    set_path(d, "flows[*].transport.tick", "20ms")
    assert [f["transport"]["tick"] for f in d["flows"]] == ["20ms"] * 3
    set_axis(d, "flows[*].transport.min_rto + flows[1].transport.tick", ["100ms", "1s"])
    assert [f["transport"]["min_rto"] for f in d["flows"]] == ["100ms"] * 3
    assert d["flows"][1]["transport"]["tick"] == "1s" and d["flows"][0]["transport"]["tick"] == "20ms"
    set_path(d, "flows[*]", {"name": "x"})  # each element its own copy
    d["flows"][0]["name"] = "y"
    assert [f["name"] for f in d["flows"]] == ["y", "x", "x"]
    with pytest.raises(ValueError, match="non-empty list"):
        set_path({"flows": []}, "flows[*].app.rate", "1Mb")
    with pytest.raises(ValueError, match="non-empty list"):
        set_path({"flows": {"a": 1}}, "flows[*].app", 1)


def test_table_values_are_copied_per_grid_point(tmp_path):
    # A table value (a whole queue) with a path into it: each point must get its own copy,
    # or setting the inner path at a later point rewrites the scenarios of earlier points.
    spec = spec_for(tmp_path, seeds=(1,))
    queues = [{"kind": "droptail", "limit": "10p"}, {"kind": "red", "limit": "10p"}]
    spec = SweepSpec(spec.scenario, {"dumbbell.bottleneck.queue": queues,
                                     "dumbbell.bottleneck.queue.limit": ["5p", "20p"]}, [1])
    got = [(r.scenario["dumbbell"]["bottleneck"]["queue"]["kind"], r.scenario["dumbbell"]["bottleneck"]["queue"]["limit"])
           for r in spec.runs()]
    assert got == [("droptail", "5p"), ("droptail", "20p"), ("red", "5p"), ("red", "20p")]
    assert queues[0] == {"kind": "droptail", "limit": "10p"}


def test_a_linked_axis_sets_its_paths_together_and_crosses_the_others(tmp_path):
    # "a + b" = [[a1, b1], [a2, b2]]: two points, not four, each crossed with the other axes.
    spec = spec_for(tmp_path, seeds=(1,))
    rate = "flows[0].app.rate"
    spec = SweepSpec(spec.scenario, {f"{LIMIT} + {rate}": [["5p", "1Mb"], ["20p", "3Mb"]],
                                     "duration": ["1s", "2s"]}, [1])
    got = [(r.scenario["dumbbell"]["bottleneck"]["queue"]["limit"], r.scenario["flows"][0]["app"]["rate"],
            r.scenario["duration"]) for r in spec.runs()]
    assert got == [("5p", "1Mb", "1s"), ("5p", "1Mb", "2s"), ("20p", "3Mb", "1s"), ("20p", "3Mb", "2s")]
    with pytest.raises(ValueError, match="one per path"):
        set_axis({}, f"{LIMIT} + {rate}", ["5p"])


def test_a_linked_axis_runs_and_names_its_column_by_the_key(tmp_path):
    spec_for(tmp_path)
    f = tmp_path / "s.toml"
    key = f"{LIMIT} + flows[0].app.rate"
    f.write_text(f'scenario = "scenario.toml"\nseeds = 1\n[grid]\n"{key}" = [["5p", "1.2Mb"], ["20p", "0.5Mb"]]\n')
    r = sweep(load_sweep(f), out=tmp_path / "out", workers=1)
    assert r.table[key].drop_duplicates().tolist() == ['["5p", "1.2Mb"]', '["20p", "0.5Mb"]']
    lost = r.table.groupby(key)["dropped_pkts"].sum()
    assert lost['["5p", "1.2Mb"]'] > lost['["20p", "0.5Mb"]'] == 0
    f.write_text(f'scenario = "scenario.toml"\n[grid]\n"{key}" = [["5p"]]\n')
    with pytest.raises(nsim.ScenarioError) as e:
        load_sweep(f)
    assert e.value.path == f"grid.{key}" and "one per path" in str(e.value)


def test_a_column_an_extractor_gives_only_some_runs_is_kept(tmp_path):
    # The table's columns are the union over runs: a measure only the later runs have (a video
    # log's, in the runs with video) was dropped when the first run fixed the columns.
    from nsim.sweeps import Extract

    ex = tmp_path / "ex.py"
    ex.write_text("def extra(res):\n"
                  "    limit = res.scenario['dumbbell']['bottleneck']['queue']['limit']\n"
                  "    return {'only_20p': 1.0} if limit == '20p' else {}\n")
    spec = spec_for(tmp_path, seeds=(1,))
    spec = SweepSpec(spec.scenario, spec.grid, [1], extract=Extract.of(ex, "extra"))
    t = sweep(spec, out=tmp_path / "out", workers=1).table
    assert t.groupby(LIMIT)["only_20p"].apply(lambda s: s.notna().all()).to_dict() == {"5p": False, "20p": True}


def test_a_long_axis_value_is_stored_once_and_abbreviated_in_the_csv(tmp_path):
    # A whole flows list as an axis value (tens of kilobytes in the chapter-5 studies) was
    # copied into every row of every output file.
    spec = spec_for(tmp_path, seeds=(1,))
    base = spec.scenario["flows"]
    more = [{**f, "name": f"extra{k}_{{i}}", "app": {**f["app"], "rate": "0.1Mb"}} for f in base for k in range(3)]
    flows = [base, base + more]
    spec = SweepSpec(spec.scenario, {"flows": flows}, [1])
    r = sweep(spec, out=tmp_path / "out", workers=1)
    text = json.dumps(flows[1])
    assert len(text) > 200 >= len(json.dumps(base))
    back = pd.read_parquet(tmp_path / "out" / "table.parquet")
    assert back["flows"].dtype == "category" and back["flows"].astype(str).tolist() == r.table["flows"].tolist()
    csv = (tmp_path / "out" / "summary.csv").read_text()
    assert text not in csv and f"<{len(text)} characters, sha256 " in csv and json.dumps(base).replace('"', '""') in csv


def test_sweep_file_errors_name_the_field(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('scenario = "missing.toml"\nseeds = 0\n')
    with pytest.raises(nsim.ScenarioError) as e:
        load_sweep(f)
    assert e.value.path == "seeds" and e.value.file == str(f)
    f.write_text('scenario = "x.toml"\n[grid]\n"a..b" = [1]\n')
    with pytest.raises(nsim.ScenarioError, match="malformed"):
        load_sweep(f)
    spec_for(tmp_path)  # writes scenario.toml, whose only [[flows]] entry is flows[0]
    f.write_text('scenario = "scenario.toml"\n[grid]\n"flows[5].app.rate" = ["1Mb"]\n')
    with pytest.raises(nsim.ScenarioError) as e:
        load_sweep(f)
    assert e.value.path == "grid.flows[5].app.rate" and "out of range" in str(e.value)


# -- local process pool -------------------------------------------------------------------

def test_local_sweep_table_and_summary(tmp_path):
    spec = spec_for(tmp_path)
    r = sweep(spec, out=tmp_path / "out", workers=2)
    t = r.table
    assert (r.ran, r.cached, r.failed) == (6, 0, 0)
    assert len(t) == 2 * 3 * 2  # points x seeds x flows
    assert list(t.columns[:5]) == [LIMIT, "seed", "point", "run_key", "error"]
    assert t["error"].isna().all()
    assert t.groupby([LIMIT, "seed"]).size().eq(2).all()
    # jitter makes seeds differ, so the CIs are finite and positive
    s = r.summary
    assert len(s) == 2 * 2 and (s["goodput_bps_n"] == 3).all()
    assert (s["goodput_bps_ci95"] > 0).all()
    # a 5-packet buffer drops more than a 20-packet one at 120 % load
    loss = s.groupby(LIMIT)["loss_rate_mean"].mean()
    assert loss["5p"] > loss["20p"]
    back = pd.read_parquet(tmp_path / "out" / "table.parquet")
    pd.testing.assert_frame_equal(back, t)


def test_the_run_cache_is_compressed_json_that_a_rerun_reads_back_and_rewrites_byte_for_byte(tmp_path):
    spec = spec_for(tmp_path, limits=("5p",), seeds=(1, 2))
    first = sweep(spec, out=tmp_path / "a", workers=2)
    files = sorted((tmp_path / "a" / "runs").glob("*" + CACHE_SUFFIX))
    assert [f.name.removesuffix(CACHE_SUFFIX) for f in files] == sorted(first.table["run_key"].unique())
    for f in files:
        rows = json.loads(gzip.decompress(f.read_bytes()))
        mine = first.table[first.table["run_key"] == f.name.removesuffix(CACHE_SUFFIX)]
        assert [r["name"] for r in rows] == list(mine["name"])
    again = sweep(spec, out=tmp_path / "a", workers=2)
    assert (again.ran, again.cached) == (0, 2)
    pd.testing.assert_frame_equal(again.table, first.table)
    sweep(spec, out=tmp_path / "b", workers=1)  # no time stamp in the gzip header
    assert [f.read_bytes() for f in files] == [(tmp_path / "b" / "runs" / f.name).read_bytes() for f in files]


def test_failing_run_is_recorded_and_others_kept(tmp_path):
    spec = spec_for(tmp_path, limits=("5p", "banana"), seeds=(1, 2))
    r = sweep(spec, out=tmp_path / "out", workers=2)
    bad = r.table[r.table[LIMIT] == "banana"]
    good = r.table[r.table[LIMIT] == "5p"]
    assert r.failed == 2 and len(bad) == 2 and bad["error"].str.contains("banana").all()
    assert len(good) == 4 and good["error"].isna().all()
    # failures are not cached: the next call retries exactly them
    again = sweep(spec, out=tmp_path / "out", workers=2)
    assert (again.ran, again.cached, again.failed) == (2, 2, 2)


def test_interrupted_sweep_resumes_with_only_what_is_missing(tmp_path):
    spec = spec_for(tmp_path, limits=("5p", "10p", "20p"), seeds=(1, 2))
    out = tmp_path / "out"
    done = []

    def stop_after_two(run, error):
        done.append(run.key)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(spec, out=out, workers=2, on_result=stop_after_two)
    # Workers write the cache, so runs a worker finished before the stop are kept even if
    # the driver had not reported them yet: at least the reported ones are cached.
    cached = {p.name.removesuffix(CACHE_SUFFIX) for p in (out / "runs").glob("*" + CACHE_SUFFIX)}
    assert cached >= set(done) and not any((out / "runs").glob("*.tmp*"))
    rerun = []
    r = sweep(spec, out=out, workers=2, on_result=lambda run, err: rerun.append(run.key))
    assert (r.ran, r.cached) == (6 - len(cached), len(cached))
    assert set(rerun) == {run.key for run in spec.runs()} - cached
    fresh = sweep(spec, out=tmp_path / "fresh", workers=1)
    pd.testing.assert_frame_equal(r.table, fresh.table)


# -- Dask ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


def test_dask_gives_the_same_table_as_the_local_pool(tmp_path, cluster):
    spec = spec_for(tmp_path)
    local = sweep(spec, out=tmp_path / "local", workers=2)
    dask = sweep(spec, out=tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert dask.ran == 6
    pd.testing.assert_frame_equal(local.table, dask.table)
    pd.testing.assert_frame_equal(local.summary, dask.summary)


def test_worker_killed_mid_sweep_loses_and_duplicates_nothing(tmp_path, cluster):
    from dask.distributed import Client

    # Longer runs so that the other worker is busy when one is killed.
    spec = spec_for(tmp_path, limits=("5p", "10p", "20p", "40p"), seeds=(1, 2),
                    duration="20s", rate="12Mb")
    with Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_one_worker(run, error):
            if not killed:
                pid = next(iter(pids.values()))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        r = sweep(spec, out=tmp_path / "dask", scheduler=client, on_result=kill_one_worker)
    assert killed
    t = r.table
    assert r.failed == 0 and t["error"].isna().all()
    assert t.groupby("run_key").size().eq(2).all()  # each run once, with its 2 flows
    assert t["run_key"].nunique() == len(spec.runs())
    local = sweep(spec, out=tmp_path / "local", workers=2)
    pd.testing.assert_frame_equal(t, local.table)


# -- command line -------------------------------------------------------------------------

def test_sweep_command_on_dask_and_bad_files(tmp_path, cluster):
    from click.testing import CliRunner

    from nsim.cli.sweep import command

    spec = spec_for(tmp_path, limits=("5p",), seeds=(1, 2))
    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text(textwrap.dedent(f"""\
        scenario = "scenario.toml"
        seeds = 2
        metrics = ["goodput_bps"]
        [grid]
        "{LIMIT}" = ["5p"]
        """))
    out = tmp_path / "out"
    r = CliRunner().invoke(command, [str(sweep_file), "-o", str(out), "--scheduler",
                                     cluster.scheduler_address, "-q"])
    assert r.exit_code == 0, r.output
    t = pd.read_parquet(out / "table.parquet")
    assert set(t["run_key"]) == {run.key for run in spec.runs()}
    s = pd.read_csv(out / "summary.csv")
    assert list(s.columns) == [LIMIT, "flow", "name", "goodput_bps_mean", "goodput_bps_ci95", "goodput_bps_n"]
    r = CliRunner().invoke(command, [str(sweep_file), "-o", str(out)])
    assert r.exit_code == 0 and "2 runs: 0 ran, 2 cached, 0 failed" in r.output
    sweep_file.write_text('scenario = "scenario.toml"\nseeds = "three"\n')
    r = CliRunner().invoke(command, [str(sweep_file), "-o", str(out)])
    assert r.exit_code == 2 and "field `seeds`" in r.output


# -- the sweep file is checked before anything runs -----------------------------------------

@pytest.mark.parametrize("body,field,reason", [
    ('[grid]\n"dumbbell.botleneck.queue.limit" = ["5p"]\n', "grid.dumbbell.botleneck.queue.limit", "unknown field `botleneck`"),
    ('[grid]\n"dumbbell.bottleneck.queue.limit" = ["5p", "25pkts"]\n', "grid.dumbbell.bottleneck.queue.limit",
     "value '25pkts': unknown queue limit unit 'pkts'"),
    ('metrics = ["goodput_bps", "goodput"]\n', "metrics[1]", "unknown per-flow column 'goodput'"),
    ('metric = ["goodput_bps"]\n', "metric", "unknown key"),
    ('name = 3\n', "name", "expected a name for the output directory"),
    ('name = "../../x"\n', "name", "'../../x': a name for the output directory"),
    ('name = "/tmp/elsewhere"\n', "name", "(one folder, not a path)"),
    ('name = ".."\n', "name", "(one folder, not a path)"),
    ('seeds = [1, true]\n', "seeds", "a positive count or a non-empty list"),
])
def test_sweep_file_typos_exit_2_before_running(tmp_path, body, field, reason):
    from click.testing import CliRunner

    from nsim.cli.sweep import command

    spec_for(tmp_path)
    f = tmp_path / "s.toml"
    f.write_text('scenario = "scenario.toml"\n' + body)
    r = CliRunner().invoke(command, [str(f), "-o", str(tmp_path / "out")])
    assert r.exit_code == 2, r.output
    assert f"error: {f}: field `{field}`" in r.output and reason in r.output, r.output
    assert not (tmp_path / "out").exists(), "nothing ran"


def test_a_sweep_name_cannot_leave_the_output_folder(tmp_path, monkeypatch):
    """Issue 29 (2): a spec built in Python with a path for a name is refused too."""
    import dataclasses

    spec = dataclasses.replace(spec_for(tmp_path), name="../escaped")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(nsim.ScenarioError, match="field `name`: '../escaped'"):
        sweep(spec, workers=1)
    assert not (tmp_path / "escaped").exists()


def test_sweep_file_that_is_not_utf8_exits_2(tmp_path):
    f = tmp_path / "s.toml"
    f.write_bytes(b'scenario = "x\xff.toml"\n')
    with pytest.raises(nsim.ScenarioError, match=r"s.toml:1: not valid UTF-8 text: byte 0xff at offset 13"):
        load_sweep(f)


def test_run_key_is_the_hash_of_the_canonical_document() -> None:
    """Run keys are computed with the scenario encoded once per grid point; they must stay
    the SHA-256 of json.dumps({scenario, seed, nsim, extract}, sort_keys=True), so existing
    run caches stay valid."""
    import hashlib
    import json

    from nsim.sweeps import Extract, run_key

    scenario = {"name": "x", "flows": [{"b": 1.5, "a": [1, "é"]}], "duration": "1s"}
    extract = Extract(file="f.py", function="g", digest="d")
    for seed, ex in ((1, None), (12345, extract)):
        doc = {"scenario": scenario, "seed": seed, "nsim": "0.1.0"}
        if ex is not None:
            doc["extract"] = [ex.function, ex.digest]
        blob = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
        assert run_key(scenario, seed, "0.1.0", ex) == hashlib.sha256(blob.encode("utf-8")).hexdigest()


def test_run_keys_change_with_the_compiled_core() -> None:
    """A rebuilt core (a model change inside one version) must not reuse cached runs: the
    version in the key carries a digest of the compiled extension."""
    import hashlib

    from nsim import _core
    from nsim.sweeps import _nsim_version, run_key

    with open(_core.__file__, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    version = _nsim_version()
    assert version == f"{nsim.__version__}+{digest}"
    scenario = {"name": "x", "duration": "1s"}
    assert run_key(scenario, 1, version) != run_key(scenario, 1, str(nsim.__version__))


@pytest.mark.parametrize("address", ["local", "localhost", "", "tcp://host", "tcp://h:99999"])
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(tmp_path, address):
    """Issue 29 (9): no traceback, nothing written, no 30 s wait."""
    from click.testing import CliRunner

    from nsim.cli.sweep import command

    spec_for(tmp_path)
    f = tmp_path / "s.toml"
    f.write_text('scenario = "scenario.toml"\n')
    r = CliRunner().invoke(command, [str(f), "-o", str(tmp_path / "out"), "--scheduler", address])
    assert r.exit_code == 2, r.output
    assert "error: --scheduler: " in r.output and "is not a Dask scheduler address" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "out").exists()


def test_an_unreachable_scheduler_is_one_line_after_the_connect_timeout(tmp_path):
    import time

    from click.testing import CliRunner

    from nsim.cli.sweep import command
    from nsim.sweeps import CONNECT_TIMEOUT_S

    spec_for(tmp_path)
    f = tmp_path / "s.toml"
    f.write_text('scenario = "scenario.toml"\n')
    started = time.monotonic()
    r = CliRunner().invoke(command, [str(f), "-o", str(tmp_path / "out"), "--scheduler", "127.0.0.1:9"])
    assert r.exit_code == 2, r.output
    assert "error: --scheduler tcp://127.0.0.1:9: no Dask scheduler answered" in r.output
    assert time.monotonic() - started < CONNECT_TIMEOUT_S + 20


def test_a_killed_pool_worker_is_retried_and_nothing_is_lost(tmp_path):
    """Issue 29 (1): a local worker killed mid-sweep: its batches run again on a fresh pool in
    the same call, no run fails, none is duplicated, and the table is the undisturbed one's."""
    import multiprocessing

    spec = spec_for(tmp_path, limits=("5p", "10p", "20p", "40p"), seeds=(1, 2), duration="20s", rate="12Mb")
    killed = []

    def kill_one_worker(run, error):
        if not killed:
            workers = [p for p in multiprocessing.active_children() if p.is_alive()]
            if workers:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append(workers[0].pid)

    r = sweep(spec, out=tmp_path / "killed", workers=2, on_result=kill_one_worker)
    assert killed
    assert r.failed == 0 and r.table["error"].isna().all()
    assert r.table.groupby("run_key").size().eq(2).all() and r.table["run_key"].nunique() == len(spec.runs())
    pd.testing.assert_frame_equal(r.table, sweep(spec, out=tmp_path / "calm", workers=2).table)


def test_workers_die_with_a_killed_driver(tmp_path):
    """Issue 29 (7): after `kill -9` of the sweep driver no worker of its pool runs on."""
    import subprocess
    import sys
    import time

    spec_for(tmp_path, limits=("5p", "10p", "20p", "40p"), seeds=(1, 2, 3), duration="60s", rate="12Mb")
    f = tmp_path / "s.toml"
    f.write_text(f'scenario = "scenario.toml"\nseeds = 3\n[grid]\n"{LIMIT}" = ["5p", "10p", "20p", "40p"]\n')
    driver = subprocess.Popen([sys.executable, "-m", "nsim", "sweep", str(f), "-o", str(tmp_path / "out"), "-j", "2",
                               "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def children_of(pid: int) -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = open(f"/proc/{entry}/stat").read()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        return found

    def alive(pid: int) -> bool:
        try:
            return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = [c for c in children_of(driver.pid) for c in [c] + children_of(c)]
    assert workers, "the sweep started no worker"
    driver.kill()
    driver.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.2)
    assert not [w for w in workers if alive(w)], "workers outlived their driver"


# -- progress when piped, and the summary at the end (issue 30) ------------------------------

def test_piped_progress_prints_plain_lines():
    import io

    from nsim.sweeps import LINES_MAX, _progress, progress_line

    stream = io.StringIO()  # not a terminal, as when piped or logged
    with _progress(5, True, stream) as advance:
        for failed in (False, True, False, False, False):
            advance(failed)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 5 and lines[1].startswith("sweep: 2/5 runs (40%), 1 failed, ")
    assert lines[-1].startswith("sweep: 5/5 runs (100%), 1 failed, ") and "left" not in lines[-1]
    stream = io.StringIO()
    with _progress(200, True, stream) as advance:
        for _ in range(200):
            advance(False)
    assert len(stream.getvalue().splitlines()) == LINES_MAX  # one line per 5 %
    with _progress(3, False, stream := io.StringIO()) as advance:
        advance(False)
    assert stream.getvalue() == ""
    assert progress_line(30, 60, 0, 12.0) == "sweep: 30/60 runs (50%), 0 failed, 12.0 s, ~12 s left"


def test_sweep_command_shows_progress_and_a_summary_when_piped(tmp_path):
    from conftest import run_cli

    spec_for(tmp_path, limits=("5p", "20p"), seeds=(1, 2))
    f = tmp_path / "s.toml"
    f.write_text(f'scenario = "scenario.toml"\nseeds = 2\nmetrics = ["goodput_bps"]\n[grid]\n"{LIMIT}" = ["5p", "20p"]\n')
    out = tmp_path / "out"
    p = run_cli("sweep", str(f), "-o", str(out), "-j", "1")
    assert p.returncode == 0, p.stderr
    assert [l.split(",")[0] for l in p.stderr.splitlines()] == [f"sweep: {i}/4 runs ({25 * i}%)" for i in range(1, 5)]
    assert "4 runs: 4 ran, 0 cached, 0 failed (4 ok) in " in p.stdout and " s wall" in p.stdout
    assert f"report: nsim report {out}" in p.stdout
    p = run_cli("sweep", str(f), "-o", str(out), "--report")
    assert p.returncode == 0 and p.stderr == ""  # all cached: nothing to show progress for
    assert "4 runs: 0 ran, 4 cached, 0 failed (4 ok)" in p.stdout and f"report: {out / 'report.html'}" in p.stdout
    assert (out / "report.html").stat().st_size > 10_000
