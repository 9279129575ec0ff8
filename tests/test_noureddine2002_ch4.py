"""experiments/noureddine2002 chapter 4 (800-host Telnet/web/FTP mix): the chapter's --quick
run passes and checks a published value of each figure group (Fig 4.3/4.8 baseline, Fig
4.22/4.25 TCP-DS, Fig 4.29 FTPlong, Fig 4.14 scaled network); the buffer-sweep, APPL, timer,
object-count, scaled-network and FTPlong reducers and ER-TBM's scheme on hand-made tables."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nsim.reproduction import load_study
from conftest import ROOT, load_module, run_cli

STUDY = ROOT / "experiments" / "noureddine2002"


def _reduce() -> Any:
    return load_module(STUDY / "reduce.py")


def _part_rows(part: str) -> list[dict[str, Any]]:
    """The part's rows as `nsim reproduce` hands them to its reducer."""
    return [dataclasses.asdict(r) for r in load_study(STUDY).rows if r.part == part and not r.derived]


def _link(limit: str) -> dict[str, Any]:
    q = {"kind": "droptail", "limit": limit}
    return {"rate": "60Mb", "delay": "1ms", "queue": q, "reverse_queue": q}


def test_noureddine2002_ch4_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "4", "--quick",
                "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["id"]: row for row in csv.DictReader((tmp_path / "results.csv").open())}
    for rid in ("ch4_baseline.r100.echo80_median_s", "ch4_tcpds.tcp_ds.r100.echo80_over_0.5s",
                "ch4_ftplong.droptail.share_200ms", "ch4_scaled.droptail.echo80_p99_s"):
        assert rows[rid]["evidence"] == "published" and rows[rid]["status"] in ("pass", "known-fail"), rows[rid]


def test_ch4_buffers_reducer_reads_each_buffer() -> None:
    # Two buffers, one seed: probe pages of 1 and 6 s at 125 KB (half over 5 s), 6 and 12 s at
    # 20 MB (all over 5 s); host 3's Telnet has the 120 ms RTT; FTP probe files of 10 s and 8 s.
    rows = []
    for limit, pages, echoes, files, drop in (("125p", [1.0, 6.0], [0.1, 0.1], [10.0], 0.1),
                                              ("20000p", [6.0, 12.0], [0.3, 0.1], [8.0], 0.002)):
        for name, durations in (("probe10_0", pages), ("telnet3", echoes), ("telnet2", [9.0]), ("ftpprobe0", files)):
            rows.append({"tree.levels[0].link": _link(limit), "seed": 1, "name": name, "durations": durations,
                         "central_drop": drop})
    out = _reduce().ch4_buffers(pd.DataFrame(rows))
    assert out["ch4_buffers.best.http10_over_5s"] == 0.5
    assert out["__frames__"]["ch4_buffers_table"].set_index("buffer_pkts").loc[20000, "http10_over_5s"] == 1.0
    assert out["ch4_buffers.b20MB.echo120_over_0.2s"] == 0.5  # telnet2 (80 ms RTT) is not counted
    assert out["ch4_buffers.b20MB.drop_rate"] == 0.002
    assert out["ch4_buffers.ftp_mean_20MB_over_125KB"] == pytest.approx(0.8)


def _appl_tree(med_rate: str) -> dict[str, Any]:
    shaper = lambda rate: {"queue": {"kind": "shaper", "rate": rate}}  # noqa: E731
    return {"levels": [{"link": {"queue": {"kind": "prio", "classes": [shaper("250kb"), shaper(med_rate), {}]}}}]}


def test_ch4_appl_reducer_tells_the_schemes_apart() -> None:
    # APPL is told by its host shapers, its two MED profiles by the second shaper's rate; Telnet
    # loss is dropped / sent over the Telnet sessions.
    drop_tail = {"levels": [{"link": {"queue": {"kind": "droptail"}}}]}
    rows = []
    for tree, lost, ftp, pages in ((_appl_tree("250kb"), 0, 12.0, [2.0, 6.0]), (drop_tail, 5, 8.0, [2.0, 6.0]),
                                   (_appl_tree("110kb"), 0, 10.0, [6.0, 10.0])):
        for name, durations, sent, dropped in (("telnet2", [0.1, 1.2], 100, lost), ("probe10_0", pages, 50, 0),
                                               ("ftpprobe0", [ftp], 200, 0)):
            rows.append({"tree": tree, "tree.levels[0].link.rate": "75Mb", "seed": 1, "name": name,
                         "durations": durations, "central_drop": 0.01, "sent_pkts": sent, "dropped_pkts": dropped})
    out = _reduce().ch4_appl(pd.DataFrame(rows), _part_rows("ch4_appl"))
    assert out["ch4_appl.appl.r75.telnet_loss"] == 0.0
    assert out["ch4_appl.r75.ftp_mean_appl_over_droptail"] == pytest.approx(1.5)
    assert out["ch4_appl.r75.ftp_mean_appl_over_appl110"] == pytest.approx(1.2)
    assert out["ch4_appl.r75.http10_mean_appl110_over_appl"] == pytest.approx(2.0)
    table = out["__frames__"]["ch4_appl_table"].set_index("scheme")
    assert table.loc["droptail", "telnet_loss"] == 0.05 and table.loc["appl", "echo80_over_0.5s"] == 0.5
    assert sorted(table.index) == ["appl", "appl110", "droptail"]


def test_ch4_timers_reducer_takes_ratios_to_the_standard_timers() -> None:
    # One seed per timer setting: the 80 ms-RTT Telnet (telnet2) echoes, the HTTP/1.0 probe
    # pages and the central drop rate; each row is the variant's value over the standard's.
    key = _reduce().CH4_TIMERS
    rows = []
    for timers, echoes, pages, drop in ((["200ms", "1s", "6s"], [0.1, 0.6, 0.7, 0.1], [4.0, 8.0], 0.05),
                                        (["20ms", "100ms", "6s"], [0.1, 0.6, 0.1, 0.1], [6.0, 9.0], 0.06),
                                        (["200ms", "1s", "1s"], [0.1, 0.1, 0.7, 0.7], [2.0, 1.0], 0.06)):
        for name, durations in (("telnet2", echoes), ("telnet3", [5.0]), ("probe10_0", pages)):
            rows.append({key: json.dumps(timers), "seed": 1, "name": name, "durations": durations, "central_drop": drop})
    out = _reduce().ch4_timers(pd.DataFrame(rows))
    assert out["ch4_timers.tick20.echo80_over_0.5s_ratio"] == pytest.approx(0.5)  # telnet3 (120 ms RTT) not counted
    assert out["ch4_timers.tick20.http10_mean_ratio"] == pytest.approx(7.5 / 6.0)
    assert out["ch4_timers.rto1.http10_mean_ratio"] == pytest.approx(1.5 / 6.0)
    assert out["ch4_timers.rto1.drop_rate_ratio"] == pytest.approx(1.2)


def test_ch4_objects_reducer_compares_the_spread_of_16_images_with_1() -> None:
    page = lambda n: {"kind": "fixed", "index": "1KB", "objects": n, "object": f"{80 // n}KB"}  # noqa: E731
    rows = [{"flows[5].app.page": json.dumps(page(n)), "seed": 1, "name": "probe10_0", "durations": d, "central_drop": 0.07}
            for n, d in ((1, [4.0, 6.0]), (4, [3.0, 9.0]), (16, [2.0, 12.0]))]
    out = _reduce().ch4_objects(pd.DataFrame(rows))
    assert out["ch4_objects.std_ratio_16_over_1"] == pytest.approx(5.0)  # std 5 s against 1 s
    assert list(out["__frames__"]["ch4_objects_table"]["objects"]) == [1, 4, 16]


def test_er_tbm_is_told_by_its_markers() -> None:
    scheme = _reduce()._scheme
    marker = {"kind": "trtcm", "cir": "250kb", "queue": {"kind": "droptail"}}
    assert scheme({"levels": [{"link": {"queue": {"kind": "af", "mode": "red"}}}, {"link": {"queue": marker}}]}) == "er_tbm"
    assert scheme({"levels": [{"link": {"queue": {"kind": "af", "mode": "red"}}}, {"link": {"queue": {"kind": "host_sched"}}}]}) == "tcp_ds"


def _wrr_tree(telnet_weight: int, data_weight: int) -> dict[str, Any]:
    dt = {"kind": "droptail", "limit": "500p"}
    queue = {"kind": "wrr", "unit": "packets", "classes": [
        {"name": "telnet", "match": {"flows": ["telnet*"]}, "weight": telnet_weight, "queue": dt},
        {"name": "data", "weight": data_weight, "queue": dt}]}
    return {"root": "core", "levels": [{"fanout": 2, "prefix": "br", "link": {"rate": "10Mb", "queue": queue}}]}


def test_ch4_scaled_reducer_scores_each_scheme_on_the_80ms_echoes() -> None:
    # Fig 4.14: drop tail and a 20 % WRR Telnet queue, one seed. telnet2 and telnet7 have the
    # 80 ms RTT (index mod 5 = 2); telnet3 (120 ms) must not count.
    droptail = {"root": "core", "levels": [{"fanout": 2, "prefix": "br", "link": {
        "rate": "10Mb", "queue": {"kind": "droptail", "limit": "500p"}}}]}
    rows = []
    for tree, e80 in ((droptail, [0.1] * 98 + [3.0, 5.0]), (_wrr_tree(1, 4), [0.1] * 99 + [0.3])):
        for name, durations in (("telnet2", e80[:50]), ("telnet7", e80[50:]), ("telnet3", [9.0] * 10)):
            rows.append({"tree": json.dumps(tree), "seed": 1, "name": name, "durations": durations,
                         "central_drop": 0.05, "sent_pkts": 100, "dropped_pkts": 1})
    out = _reduce().ch4_scaled(pd.DataFrame(rows), _part_rows("ch4_scaled"))
    assert out["ch4_scaled.droptail.echo80_median_s"] == pytest.approx(0.1)
    assert out["ch4_scaled.droptail.echo80_p99_s"] == pytest.approx(3.0 + 0.01 * 2.0)  # numpy's linear interpolation
    assert out["ch4_scaled.wrr20.echo80_over_0.2s"] == pytest.approx(0.01)
    assert "ch4_scaled.wrr20.echo80_median_s" not in out  # not a row of expected.toml
    table = out["__frames__"]["ch4_scaled_table"].set_index("scheme")
    assert list(table.index) == ["droptail", "wrr20"] and table.loc["droptail", "echoes_80ms"] == 100
    assert table.loc["wrr20", "telnet_loss"] == pytest.approx(0.01)
    assert _reduce()._scheme(_wrr_tree(2, 3)) == "wrr40"


def test_ch4_ftplong_reducer_scores_each_rate_against_its_own_fair_share() -> None:
    # Fig 4.29 at 100 and 200 Mb/s, two flows a run (fair share = rate x 1000/1040 / 2):
    # the 200 ms flow at 0.4 of it under drop tail; under TCP-DS at 0.9 (HIGH 4) and 1.0 (HIGH 8).
    dt = json.dumps({"levels": [{"link": {"queue": {"kind": "droptail"}}}]})
    ds = json.dumps({"levels": [{"link": {"queue": {"kind": "af"}}}, {"link": {"queue": {"kind": "host_sched"}}}]})
    rows = []
    for mbps in (100, 200):
        fair = mbps * 1e6 * 1000 / 1040 / 2
        for tree, high, share, cov in ((dt, 4, 0.4, 0.8), (dt, 8, 0.4, 0.8), (ds, 4, 0.9, 0.5), (ds, 8, 1.0, 0.3)):
            for name, gp in (("ftplong_200ms", share * fair), ("ftplong_20ms", fair)):
                rows.append({"tree": tree, "tree.levels[0].link.rate": f"{mbps}Mb", "seed": 1,
                             "flows[0].transport.tcp_ds": json.dumps({"high": high, "med": 2 * high}),
                             "name": name, "gp_mean_bps": gp, "gp_cov": cov, "idle_frac": 0.0})
    out = _reduce().ch4_ftplong(pd.DataFrame(rows))
    for prefix in ("ch4_ftplong", "ch4_ftplong.r200"):
        assert out[f"{prefix}.droptail.share_200ms"] == pytest.approx(0.4)
        assert out[f"{prefix}.tcp_ds.best_share_200ms"] == pytest.approx(1.0)
        assert out[f"{prefix}.cov_ratio_tcpds_over_droptail"] == pytest.approx(0.3 / 0.8)
    assert sorted(out["__frames__"]["ch4_ftplong"]["curve"].unique()) == [
        "droptail 100 Mb/s", "droptail 200 Mb/s", "tcp_ds 100 Mb/s", "tcp_ds 200 Mb/s"]
