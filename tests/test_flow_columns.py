"""flows.csv has the columns that apply to the run's flows; flows_all.csv and Results.flows
have every column (issue 30: 63 columns, most irrelevant to the flow's protocol)."""

from __future__ import annotations

import shutil

import pandas as pd

import nsim
from conftest import SCENARIOS, run_cli
from nsim.flow_columns import FLOW_COMMON_COLUMNS, flow_columns


def kept(header, rows):
    return [header[i] for i in flow_columns(header, rows)]


def test_transport_columns_stay_when_zero_other_columns_only_when_used():
    header = ["flow", "name", "transport", "retransmits", "timeouts", "polls", "drops_overflow", "drops_codel",
              "sent_high_pkts", "sent_med_pkts", "late_pkts"]
    tcp = ["0", "a", "tcp", "0", "0", "0", "3", "0", "10", "0", ""]
    udp = ["1", "b", "udp", "0", "0", "0", "0", "0", "10", "0", ""]
    assert kept(header, [tcp, udp]) == ["flow", "name", "transport", "retransmits", "timeouts", "drops_overflow"]
    assert kept(header, [udp]) == ["flow", "name", "transport"]
    marked = udp[:9] + ["4", "2"]  # a MED packet and a late one: both groups apply
    assert kept(header, [marked]) == ["flow", "name", "transport", "sent_high_pkts", "sent_med_pkts", "late_pkts"]


def test_udp_run_writes_narrow_flows_and_keeps_every_column_in_flows_all(tmp_path):
    out = tmp_path / "out"
    p = run_cli("run", str(SCENARIOS / "onoff_mix.toml"), "-o", str(out), "-q")
    assert p.returncode == 0, p.stderr
    narrow, full = pd.read_csv(out / "flows.csv"), pd.read_csv(out / "flows_all.csv")
    assert set(FLOW_COMMON_COLUMNS) <= set(narrow.columns) and "drops_overflow" in narrow
    assert not {"retransmits", "ack_sent_pkts", "polls", "drops_epd", "setup_s"} & set(narrow.columns)
    assert len(narrow.columns) < 30 < len(full.columns)
    pd.testing.assert_frame_equal(narrow, full[list(narrow.columns)])  # same values
    res = nsim.Results.load(out)
    assert list(res.flows.columns) == list(full.columns)
    # the Python writer gives the same two files as the core's fast path
    nsim.Results.load(out).save(tmp_path / "again")
    assert (tmp_path / "again" / "flows.csv").read_text() == (out / "flows.csv").read_text()


def test_tcp_run_keeps_the_tcp_columns(tmp_path):
    res = nsim.load(SCENARIOS / "tcp_reno_dumbbell.toml").run(until="3s")
    res.save(tmp_path)
    narrow = pd.read_csv(tmp_path / "flows.csv")
    assert {"retransmits", "timeouts", "fast_retransmits", "ack_sent_pkts", "completion_s"} <= set(narrow.columns)
    assert "polls" not in narrow and "setup_s" not in narrow


def test_a_folder_written_before_flows_all_still_loads(tmp_path):
    nsim.load(SCENARIOS / "onoff_mix.toml").run(until="2s").save(tmp_path / "new")
    old = tmp_path / "old"
    shutil.copytree(tmp_path / "new", old)
    (old / "flows_all.csv").replace(old / "flows.csv")  # the wide table under its old name
    assert nsim.Results.load(old).flows.equals(nsim.Results.load(tmp_path / "new").flows)
