"""One output-folder policy for every command (issue 29 item 3, nsim.outdir): a folder nsim did
not write is refused unless --force; a run's folder is replaced whole, so a symlink planted at
an output name is never followed and no file of an earlier run is read back into the new
results; single files are renamed into place; a run that fails writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import nsim
from conftest import TWO_HOSTS_CBR, run_cli

SCENARIO = TWO_HOSTS_CBR.replace('delay = "1ms"\n', 'delay = "1ms"\nqueue = { kind = "cbq", classes = [{ name = "all", '
                                 'priority = 1, queue = { kind = "droptail", limit = 10 } }] }\n')


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO)
    return f


@pytest.mark.parametrize("name", ["summary.json", "flows.csv", "queues.csv", "scenario.json", "classes.csv"])
def test_a_symlink_at_an_output_name_is_replaced_not_followed(tmp_path: Path, scenario: Path, name: str) -> None:
    out = tmp_path / "out"
    assert run_cli("run", str(scenario), "-o", str(out), "-q").returncode == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (out / name).unlink()
    (out / name).symlink_to(victim)
    r = run_cli("run", str(scenario), "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    assert victim.read_text() == "precious\n"
    assert not (out / name).is_symlink() and (out / name).stat().st_size > 0


def test_files_of_an_earlier_run_are_not_read_back(tmp_path: Path, scenario: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("run", str(scenario), "-o", str(out), "-q", "--trace").returncode == 0
    assert (out / "classes.csv").exists() and (out / "trace.tr").exists()
    plain = scenario.with_name("plain.toml")
    plain.write_text(SCENARIO.replace(
        'queue = { kind = "cbq", classes = [{ name = "all", priority = 1, queue = { kind = "droptail", limit = 10 } }] }', ""))
    assert run_cli("run", str(plain), "-o", str(out), "-q").returncode == 0
    assert not (out / "classes.csv").exists() and not (out / "trace.tr").exists()
    assert len(nsim.Results.load(out).classes) == 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")], "a staging folder was left"


def test_a_folder_nsim_did_not_write_is_refused_unless_forced(tmp_path: Path, scenario: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("do not touch\n")
    r = run_cli("run", str(scenario), "-o", str(mine))
    assert r.returncode == 2 and "holds files nsim did not write" in r.stderr and "--force" in r.stderr
    assert sorted(os.listdir(mine)) == ["thesis.tex"]
    r = run_cli("run", str(scenario), "-o", str(mine), "-q", "--force")
    assert r.returncode == 0 and (mine / "thesis.tex").read_text() == "do not touch\n"
    assert (mine / "summary.json").exists() and not (mine / ".nsim-output").exists()
    # Now it holds nsim run files beside the user's: a later run writes there again, and
    # still never removes what nsim did not write.
    assert run_cli("run", str(scenario), "-o", str(mine), "-q").returncode == 0
    assert (mine / "thesis.tex").read_text() == "do not touch\n"
    sweep_out = tmp_path / "sweep-out"
    assert run_cli("run", str(scenario), "-o", str(sweep_out), "-q").returncode == 0
    sweep_file = tmp_path / "sw.toml"
    sweep_file.write_text(f'scenario = "{scenario.name}"\nseeds = 1\n')
    r = run_cli("sweep", str(sweep_file), "-o", str(sweep_out), "-j", "1")
    assert r.returncode == 2 and "holds nsim run output, not nsim sweep output" in r.stderr


def test_a_failing_run_writes_nothing(tmp_path: Path, scenario: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("run", str(scenario), "-o", str(out), "-q").returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = scenario.with_name("bad.toml")
    bad.write_text(SCENARIO.replace('rate = "100kb"', 'rate = "-1kb"'))
    assert run_cli("run", str(bad), "-o", str(out), "-q").returncode == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert run_cli("run", str(bad), "-o", str(tmp_path / "new"), "-q").returncode == 2
    assert not (tmp_path / "new").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_results_save_and_single_files_replace_symlinks(tmp_path: Path, scenario: Path) -> None:
    res = nsim.run(str(scenario))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "saved"
    res.save(out)
    (out / "flows.csv").unlink()
    (out / "flows.csv").symlink_to(victim)
    res.save(out)
    assert victim.read_text() == "precious\n" and not (out / "flows.csv").is_symlink()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("x")
    with pytest.raises(nsim.errors.ResultsError, match="holds files nsim did not write"):
        res.save(foreign)
    for args, name in ((["report", str(out)], "report.html"), (["plot", str(out), "--kind", "throughput"], "throughput.png")):
        (out / name).symlink_to(victim)
        r = run_cli(*args)
        assert r.returncode == 0, r.stderr
        assert victim.read_text() == "precious\n" and not (out / name).is_symlink()


@pytest.mark.parametrize("name", ["$$", "$^$", "$\\sqrt{$", "a_{b}$c"])
def test_user_strings_are_not_mathtext(tmp_path: Path, name: str) -> None:
    """Issue 29 (8): flow names matplotlib cannot parse as mathtext plot and report as written."""
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO.replace("[[flows]]\n", f"[[flows]]\nname = '{name}'\n")
                 + '[record]\nseries = ["flow_throughput", "queue"]\ninterval = "100ms"\n')
    out = tmp_path / "out"
    r = run_cli("run", str(f), "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    for args in (["report", str(out)], ["plot", str(out), "--kind", "throughput"], ["plot", str(out), "--kind", "queue"]):
        r = run_cli(*args)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert name in (out / "report.html").read_text()


@pytest.mark.parametrize("damage, words", [
    (lambda d: (d / "summary.json").write_text("{not json"), "summary.json: Expecting property name"),
    (lambda d: (d / "summary.json").write_text("[]"), "summary.json has no accounting table"),
    (lambda d: (d / "flows_all.csv").write_text(""), "flows_all.csv: empty"),
    (lambda d: (d / "flows_all.csv").write_text("flow,goodput_bps\n0,1\n"), "flows_all.csv has no column 'name'"),
    # a folder written before flows_all.csv: the wide table is flows.csv
    (lambda d: ((d / "flows_all.csv").unlink(), (d / "flows.csv").write_text(""))[1], "flows.csv: empty"),
    (lambda d: (d / "queues.csv").write_bytes(b"from,to\n\xff\xfe,x\n"), "queues.csv: 'utf-8' codec can't decode"),
])
def test_a_damaged_results_folder_is_one_clear_error(tmp_path: Path, scenario: Path, damage, words: str) -> None:
    """Issue 29 (8): every command reading a results folder names the damaged file."""
    out = tmp_path / "out"
    assert run_cli("run", str(scenario), "-o", str(out), "-q").returncode == 0
    damage(out)
    for args in (["report", str(out)], ["plot", str(out)]):
        r = run_cli(*args)
        assert r.returncode == 2 and f"error: {out}: damaged results: " in r.stderr and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
