"""The per-packet video log (`record.video_packets`) from Python and the CLI: one row per sent
video packet with its (stream, sequence, frame, layer) tag and fate, as a DataFrame and as
video_packets.csv (hand-computed case: docs/models/video.md#per-packet-video-log)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import nsim
from conftest import ROOT

TOY = ROOT / "tests" / "data" / "video" / "toy_layered.trace"


def lossy_toy_toml() -> str:
    """The toy layered trace in bursts (6 packets per 133.3 ms play) over a 10 Mb/s link that
    loses its 2nd and 7th packet; 11 ms deadline (the case the Rust tests share)."""
    return (ROOT / "tests" / "data" / "video" / "toy_lossy_log.toml").read_text().replace("{trace}", TOY.as_posix())


def lossy_toy(record: object = True) -> nsim.Scenario:
    """:func:`lossy_toy_toml` as a scenario object, recording the log for `record`."""
    config = tomllib.loads(lossy_toy_toml())
    config["record"] = {"video_packets": record}
    return nsim.Scenario.from_dict(config, source="toy_lossy_log.toml")


def test_log_rows_and_fates(tmp_path: Path) -> None:
    res = lossy_toy().run()
    log = res.video_packets()
    assert list(log.columns) == ["flow", "name", "seq", "sequence", "frame", "layer", "size", "sent_s", "fate", "delay_s"]
    assert list(log["sequence"]) == [0] * 6 + [1] * 6 + [2] * 4
    assert list(log["frame"][:6]) == [0, 0, 0, 0, 2, 3]
    assert list(log["layer"][:6]) == [0, 0, 1, 2, 0, 2]
    assert list(log["fate"][:6]) == ["delivered", "dropped:error_model", "late", "late", "delivered", "delivered"]
    assert (log["fate"][12:] == "in_flight").all() and log["delay_s"][12:].isna().all()
    # Per-layer view and the flow counters agree.
    f = res.flows.iloc[0]
    assert (log["fate"].isin(["delivered", "late"])).sum() == f["delivered_pkts"]
    assert (log["fate"] == "late").sum() == f["late_pkts"]
    res.save(tmp_path / "out")
    back = nsim.Results.load(tmp_path / "out")
    assert back.has_video_packets and list(back.video_packets()["fate"]) == list(log["fate"])


def test_cli_writes_the_log(tmp_path: Path) -> None:
    scenario = tmp_path / "toy.toml"
    scenario.write_text(lossy_toy_toml())
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "nsim", "run", str(scenario), "-o", str(out), "-q"], check=True)
    text = (out / "video_packets.csv").read_text().splitlines()
    assert text[0] == "flow,name,seq,sequence,frame,layer,size,sent_s,fate,delay_s"
    assert len(text) == 17 and text[2].split(",")[8] == "dropped:error_model"


def test_off_by_default_and_only_for_video_flows() -> None:
    res = lossy_toy(record=False).run()
    assert not res.has_video_packets
    with pytest.raises(KeyError, match="video_packets"):
        res.video_packets()
    sc = lossy_toy(record=["nope"])
    with pytest.raises(nsim.ScenarioError, match=r"record\.video_packets\[0\]"):
        sc.run()
