"""The TCP `repeat` application (issue 11 workloads): sampled transfer sizes against their
Pareto / exponential CDFs (Kolmogorov-Smirnov), and back-to-back transfer times on an
uncongested path against a hand computation."""

from __future__ import annotations

import tomllib

import pytest
from scipy import stats

import nsim
from conftest import one_link_tcp, run_one_link_tcp


def run(app: str, duration: str = "20s", rate: str = "10Mb", delay: str = "50ms") -> nsim.Results:
    """One link, `delay` each way (10 Mb/s, 50 ms by default); 1000 B payload + 40 B header =
    1040 B segments, no SYN."""
    return run_one_link_tcp(app, duration, rate, delay, limit=10000, window=10000)


def test_back_to_back_transfers_match_a_hand_computation() -> None:
    # 10 segments per transfer, no SYN. Once slow start has opened cwnd past 10 (transfer 0)
    # every later transfer leaves as one burst: 10 serialisations of 1040 B at 10 Mb/s
    # (0.832 ms each), 50 ms to the sink, the last segment's 40 B ACK (0.032 ms) and 50 ms
    # back: 8.32 + 100 + 0.032 = 108.352 ms. Each starts when the previous one ends.
    t = run('{ kind = "repeat", size = "10KB", count = 5 }').transfers
    assert list(t["transfer"]) == [0, 1, 2, 3, 4]
    assert list(t["bytes"]) == [10_000] * 5
    assert t["duration_s"].iloc[1:].tolist() == pytest.approx([0.108352] * 4, abs=1e-9)
    assert t["start_s"].iloc[1:].tolist() == pytest.approx(t["end_s"].iloc[:-1].tolist(), abs=1e-12)
    # Transfer 0 is slow start from the initial window 2 (ns-2 delay_growth_: the first ACK
    # does not grow it), in three rounds: {0, 1}, {2, 3, 4}, {5, ..., 9}. Segment 0 goes out
    # as 1000 B (ns-2 without SYN, as the trace shows), so its ACK is back after
    # 0.8 + 0.032 + 100 = 100.832 ms; each later round's first ACK one 1040 B round trip
    # (100.864 ms) after the previous round's first; the last round's five segments leave
    # back to back, its last ACK 4 serialisations after its first:
    # 100.832 + 2 × 100.864 + 4 × 0.832 = 305.888 ms.
    assert t["duration_s"].iloc[0] == pytest.approx(0.305888, abs=1e-9)


def test_think_time_separates_transfers() -> None:
    t = run('{ kind = "repeat", size = "10KB", count = 4, think = "1s" }').transfers
    assert (t["start_s"].iloc[1:].to_numpy() - t["end_s"].iloc[:-1].to_numpy()).tolist() == pytest.approx([1.0] * 3, abs=1e-12)


@pytest.mark.parametrize(
    ("dist", "cdf"),
    [
        # Pareto shape 1.2, mean 200 KB: scale x_m = 200000 · 0.2 / 1.2 (FTP sessions, issue 11).
        ('size_dist = "pareto", shape = 1.2', stats.pareto(b=1.2, scale=200_000 * 0.2 / 1.2).cdf),
        ('size_dist = "exponential"', stats.expon(scale=200_000).cdf),
    ],
)
def test_sampled_sizes_follow_their_distribution(dist: str, cdf: object) -> None:
    app = f'{{ kind = "repeat", size = "200KB", {dist}, think = "1ms", think_dist = "exponential", count = 400 }}'
    t = run(app, duration="400s", rate="1Gb", delay="1ms").transfers
    assert len(t) >= 300, len(t)
    # Sizes are rounded up to whole bytes (< 1 B on 33 KB and more: invisible to the test).
    assert stats.kstest(t["bytes"], cdf).pvalue > 0.01


def test_ftp_think_times_are_exponential() -> None:
    app = '{ kind = "repeat", size = "1KB", think = "2s", think_dist = "exponential" }'
    t = run(app, duration="2000s").transfers
    gaps = t["start_s"].iloc[1:].to_numpy() - t["end_s"].iloc[:-1].to_numpy()
    assert len(gaps) > 500
    assert stats.kstest(gaps, stats.expon(scale=2.0).cdf).pvalue > 0.01


def test_file_transfer_is_one_row_of_the_table() -> None:
    r = run('{ kind = "file", size = "10KB" }')
    assert len(r.transfers) == 1
    assert r.transfers["duration_s"].iloc[0] == pytest.approx(r.flows["completion_s"].iloc[0], abs=1e-12)


@pytest.mark.parametrize(
    ("app", "field"),
    [
        ('{ kind = "repeat", size = "0B" }', r"flows\[0\]\.app\.size"),
        ('{ kind = "repeat", size = "1KB", size_dist = "pareto", shape = 1.0 }', r"flows\[0\]\.app\.shape"),
        ('{ kind = "repeat", size = "1KB", shape = 1.5 }', r"flows\[0\]\.app\.shape"),
        ('{ kind = "repeat", size = "1KB", count = 0 }', r"flows\[0\]\.app\.count"),
        ('{ kind = "repeat", size = "1KB", think_dist = "exponential" }', r"flows\[0\]\.app\.think"),
    ],
)
def test_bad_repeat_apps_name_the_field(app: str, field: str) -> None:
    text = one_link_tcp(app, "1s", "10Mb", "1ms", limit=10000, window=10000)
    with pytest.raises(nsim.ScenarioError, match=field):
        nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").validate()
