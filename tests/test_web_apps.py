"""Telnet and HTTP workloads over the one-way TCP agents (issue 11): echo delays and page
download times on an uncongested path against hand computations, and sampled keystroke gaps
and SURGE page compositions against their distributions (Kolmogorov-Smirnov, chi-square)."""

from __future__ import annotations

import math
from pathlib import Path
import tomllib

import numpy as np
import pytest
from scipy import stats

import nsim
from conftest import one_link_tcp, run_one_link_tcp

REPO = Path(__file__).resolve().parent.parent


def run(app: str, duration: str = "20s", rate: str = "10Mb", delay: str = "50ms", tcp: str = "packet_size = \"1000B\"") -> nsim.Results:
    """One link, `delay` each way; `packet_size` payload + 40 B header per segment, no SYN."""
    return run_one_link_tcp(app, duration, rate, delay, limit=100000, window=100000, tcp=tcp)


def ser_ms(nbytes: int, rate_bps: float = 10e6) -> float:
    """Serialisation time of `nbytes` in milliseconds."""
    return nbytes * 8 / rate_bps * 1e3


def test_telnet_echo_delay_is_one_round_trip_plus_serialisation() -> None:
    # 60 B payload + 40 B header = the thesis' 100 B keystroke packet. Echo = keystroke
    # serialisation + 50 ms + 40 B ACK serialisation + 50 ms. ns-2 without SYN sends
    # segment 0 header-less (60 B), every later keystroke as 100 B.
    t = run('{ kind = "telnet", size = "60B", count = 20 }', tcp='packet_size = "60B"').transfers
    assert set(t["kind"]) == {"echo"} and len(t) == 20
    first = ser_ms(60) + 50 + ser_ms(40) + 50
    later = ser_ms(100) + 50 + ser_ms(40) + 50
    assert t["duration_s"].iloc[0] * 1e3 == pytest.approx(first, abs=1e-9)
    assert (t["duration_s"].iloc[1:] * 1e3).tolist() == pytest.approx([later] * 19, abs=1e-9)


@pytest.mark.parametrize(
    ("gap", "dist"),
    [
        ("", stats.expon(scale=0.2)),  # the default: exponential, mean 200 ms
        (', gap = { dist = "pareto", mean = "200ms", shape = 1.5 }', stats.pareto(b=1.5, scale=0.2 / 3)),
        (', gap = { dist = "uniform", mean = "200ms" }', stats.uniform(0, 0.4)),
    ],
)
def test_telnet_gaps_start_at_the_echo_and_follow_their_distribution(gap: str, dist: object) -> None:
    t = run(f'{{ kind = "telnet", size = "60B", count = 600{gap} }}', duration="2000s", tcp='packet_size = "60B"').transfers
    gaps = t["start_s"].iloc[1:].to_numpy() - t["end_s"].iloc[:-1].to_numpy()
    assert len(gaps) == 599
    assert stats.kstest(gaps, dist.cdf).pvalue > 0.01


# The probe page (1 KB index + 8 x 10 KB) with an initial window of 100 segments: every item
# leaves as one burst. Request: 536 B + 40 B on the reverse link, then 50 ms.
REQUEST_MS = ser_ms(576) + 50
RTT_AFTER_BURST_MS = 50 + ser_ms(40) + 50  # last segment to the client, its ACK back
INDEX_BURST_MS = ser_ms(1000)  # segment 0: header-less without SYN
OBJECT_BURST_MS = 10 * ser_ms(1040)
# An object on a new connection (HTTP/1.0): its segment 0 is header-less too, as a fresh ns-2
# agent without SYN sends it.
NEW_CONNECTION_BURST_MS = ser_ms(1000) + 9 * ser_ms(1040)


def test_http11_probe_page_is_request_one_burst_and_one_round_trip() -> None:
    r = run('{ kind = "http", version = "1.1", count = 1 }', tcp='packet_size = "1000B", initial_window = 100')
    t = r.transfers
    page = t[t["kind"] == "page"]
    assert len(page) == 1 and page["bytes"].iloc[0] == 81_000
    expected = REQUEST_MS + INDEX_BURST_MS + 8 * OBJECT_BURST_MS + RTT_AFTER_BURST_MS
    assert page["duration_s"].iloc[0] * 1e3 == pytest.approx(expected, abs=1e-9)
    assert page["start_s"].iloc[0] == 0.0
    objects = t[t["kind"] == "object"]
    assert list(objects["bytes"]) == [1000] + [10_000] * 8


def test_http10_one_connection_at_a_time_costs_one_round_trip_per_object_more() -> None:
    tcp = 'packet_size = "1000B", initial_window = 100'
    p10 = run('{ kind = "http", version = "1.0", parallel = 1, count = 1 }', tcp=tcp).transfers.query("kind == 'page'")
    p11 = run('{ kind = "http", version = "1.1", count = 1 }', tcp=tcp).transfers.query("kind == 'page'")
    expected = REQUEST_MS + INDEX_BURST_MS + RTT_AFTER_BURST_MS + 8 * (NEW_CONNECTION_BURST_MS + RTT_AFTER_BURST_MS)
    assert p10["duration_s"].iloc[0] * 1e3 == pytest.approx(expected, abs=1e-9)
    diff = (p10["duration_s"].iloc[0] - p11["duration_s"].iloc[0]) * 1e3
    assert diff == pytest.approx(8 * (RTT_AFTER_BURST_MS - ser_ms(40)), abs=1e-9)


def test_http10_four_parallel_connections_fetch_the_objects_in_two_rounds() -> None:
    # After the index (one burst, one round trip) connections 0-3 each send one 10-segment
    # object at once, sharing the link, each burst 8.288 ms (every object is on a new
    # connection, whose segment 0 is header-less without SYN). Each connection takes its
    # second object when its first is acknowledged, a round trip after its burst ends, just as
    # the burst before it ends, so the last second-round burst ends 5 x 8.288 ms after the
    # first round started plus one round trip. Page = request + index burst + 3 round trips
    # + 5 object bursts = 392.797 ms (HTTP/1.1: 217.853 ms).
    r = run('{ kind = "http", version = "1.0", count = 1 }', tcp='packet_size = "1000B", initial_window = 100')
    assert list(r.flows["name"]) == ["f", "f/c1", "f/c2", "f/c3"]
    t = r.transfers
    page = t[t["kind"] == "page"]
    assert page["name"].tolist() == ["f"]
    expected = REQUEST_MS + INDEX_BURST_MS + 3 * RTT_AFTER_BURST_MS + 5 * NEW_CONNECTION_BURST_MS
    assert page["duration_s"].iloc[0] * 1e3 == pytest.approx(expected, abs=1e-9)
    objects = t[t["kind"] == "object"]
    assert objects.groupby("name").size().to_dict() == {"f": 3, "f/c1": 2, "f/c2": 2, "f/c3": 2}


ACK_MS = ser_ms(40) + 50  # the request's acknowledgment back to the client


def test_serving_after_the_request_ack_waits_for_its_trip_and_a_lost_ack_costs_the_initial_rto() -> None:
    # ns-2 PagePool/WebTraf: the request's agent calls `done` when the request is acknowledged,
    # and only then is the server told. Lossless: the page waits for the ACK's trip. The ACK
    # is the first packet on s -> d; dropping it makes the client resend the request after the
    # initial RTO (3 s), whose ACK then starts the page.
    tcp = 'packet_size = "1000B", initial_window = 100'
    app = '{ kind = "http", version = "1.1", count = 1, serve_after = "request_ack" }'
    page_ms = REQUEST_MS + ACK_MS + INDEX_BURST_MS + 8 * OBJECT_BURST_MS + RTT_AFTER_BURST_MS
    r = run(app, tcp=tcp)
    page = r.transfers.query("kind == 'page'")
    assert page["duration_s"].iloc[0] * 1e3 == pytest.approx(page_ms, abs=1e-9)
    text = one_link_tcp(app, "20s", "10Mb", "50ms", limit=100000, window=100000, tcp=tcp)
    text = text.replace('delay = "50ms"', 'delay = "50ms"\nerror = { kind = "drop_list", packets = [1] }', 1)
    lost = nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").run()
    page = lost.transfers.query("kind == 'page'")
    assert page["duration_s"].iloc[0] * 1e3 == pytest.approx(page_ms + 3000, abs=1e-9)
    f, g = r.flows.iloc[0], lost.flows.iloc[0]
    assert g["ack_dropped_pkts"] == 1 and g["dropped_pkts"] == 0 and g["sent_pkts"] == f["sent_pkts"] == 81


def test_think_time_separates_pages_and_requests_restart_the_clock() -> None:
    t = run('{ kind = "http", version = "1.1", count = 5, think = { dist = "uniform", mean = "1s" } }', duration="60s").transfers
    pages = t[t["kind"] == "page"]
    assert len(pages) == 5
    thinks = pages["start_s"].iloc[1:].to_numpy() - pages["end_s"].iloc[:-1].to_numpy()
    assert ((thinks >= 0) & (thinks <= 2.0)).all()


def surge_size_cdf(x: np.ndarray) -> np.ndarray:
    """SURGE file size: lognormal(9.36, 1.32) up to 133 KB, its tail mass as Pareto(133 KB, 1.1)."""
    body = stats.lognorm(s=1.32, scale=math.exp(9.36)).cdf
    k = 133_000.0
    tail_mass = 1 - body(k)
    return np.where(x <= k, body(x), body(k) + tail_mass * (1 - (k / np.maximum(x, k)) ** 1.1))


def test_surge_page_composition_follows_table_1_3() -> None:
    app = '{ kind = "http", version = "1.1", count = 600, page = { kind = "surge" }, think = { dist = "exponential", mean = "1ms" } }'
    t = run(app, duration="3000s", rate="1Gb", delay="1ms", tcp='packet_size = "1000B", initial_window = 1000').transfers
    pages = t[t["kind"] == "page"]
    assert len(pages) == 600
    # Rows of a page: its items (index first) in order, then the page row.
    page_of = (t["kind"] == "page").cumsum().shift(fill_value=0)
    items = t[t["kind"] == "object"].assign(page=page_of)
    sizes = items["bytes"].to_numpy(dtype=float)
    # Whole-byte rounding is below 1 B on sizes of ~10 KB: invisible at this sample size.
    assert stats.kstest(sizes, surge_size_cdf).pvalue > 0.01
    # Embedded objects per page: floor of Pareto(1, 2.43), P(N >= n) = n^-2.43.
    n = items.groupby("page").size().to_numpy() - 1
    assert n.min() >= 1
    edges = [1, 2, 3, 4, 6]
    observed = [((n >= a) & (n < b)).sum() for a, b in zip(edges, edges[1:])] + [(n >= edges[-1]).sum()]
    tail = [a ** -2.43 for a in edges] + [0.0]
    expected = [len(n) * (tail[i] - tail[i + 1]) for i in range(len(edges))]
    assert stats.chisquare(observed, expected).pvalue > 0.01


def test_http_requests_are_control_packets_not_goodput() -> None:
    r = run('{ kind = "http", version = "1.1", count = 1 }')
    f = r.flows.iloc[0]
    # 81 data segments; 81 ACKs and 1 request are control packets of the flow.
    assert f["sent_pkts"] == 81


@pytest.mark.parametrize(
    ("app", "field"),
    [
        ('{ kind = "telnet", size = "2000B" }', r"flows\[0\]\.app\.size"),
        ('{ kind = "telnet", count = 0 }', r"flows\[0\]\.app\.count"),
        ('{ kind = "http", version = "1.1", request = "0B" }', r"flows\[0\]\.app\.request"),
        ('{ kind = "http", version = "2" }', r"expected `1.0` or `1.1`"),
        ('{ kind = "http", version = "1.0", page = { kind = "fixed", object = "0B" } }', r"flows\[0\]\.app\.page"),
        ('{ kind = "http", version = "1.1", parallel = 2 }', r"flows\[0\]\.app\.parallel"),
        ('{ kind = "http", version = "1.1", page = { kind = "fixed", objects = 100000 } }', r"flows\[0\]\.app\.page\.objects"),
        ('{ kind = "http", version = "1.0", parallel = 0 }', r"flows\[0\]\.app\.parallel"),
        ('{ kind = "http", version = "1.1", serve_after = "later" }', r"request_ack"),
    ],
)
def test_bad_web_apps_name_the_field(app: str, field: str) -> None:
    text = one_link_tcp(app, "1s", "10Mb", "1ms", limit=100000, window=100000, tcp='packet_size = "1000B"')
    with pytest.raises(nsim.ScenarioError, match=field):
        nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").validate()


@pytest.mark.parametrize("row", range(4))
def test_serving_after_the_request_ack_matches_ns2_webtraf(row: int) -> None:
    # reference/ns2/webtraf: one ns-2.35 PagePool/WebTraf page of 10 packets, the request's
    # ACK kept or lost. The request is 1000 B on the wire in both (ns-2: a header-less
    # segment 0; nsim: 960 B + the 40 B header); the page ends when its last byte is
    # acknowledged at the server (WebTraf's done-resp). ns-2's window-2 lost-ACK run reuses
    # the request's agent, whose timeout left a window of 1 (README there): that run's page
    # ends 199.232 ms after nsim's, and the test holds it to that documented difference.
    import pandas as pd

    ref = pd.read_csv(REPO / "reference/ns2/webtraf/pages.csv").query("not syn").iloc[row]
    app = ('{ kind = "http", version = "1.1", count = 1, request = "960B", '
           'page = { kind = "fixed", index = "10000B", objects = 0 }, serve_after = "request_ack" }')
    tcp = f'packet_size = "1000B", initial_window = {int(ref["window_init"])}'
    text = one_link_tcp(app, "20s", "10Mb", "50ms", limit=100, window=100000, tcp=tcp)
    if ref["ack_lost"]:
        text = text.replace('delay = "50ms"', 'delay = "50ms"\nerror = { kind = "drop_list", packets = [1] }', 1)
    t = nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").run().transfers
    page, obj = t[t["kind"] == "page"].iloc[0], t[t["kind"] == "object"].iloc[0]
    # ns-2 launches the request at request_s, nsim at 0.
    assert obj["start_s"] == pytest.approx(ref["response_start_s"] - ref["request_s"], abs=1e-9)
    ns2_page = ref["page_done_s"] - ref["request_s"]
    if not (ref["ack_lost"] and ref["window_init"] == 2):
        assert page["duration_s"] == pytest.approx(ns2_page, abs=1e-9)
    else:
        assert ns2_page - page["duration_s"] == pytest.approx(0.199232, abs=1e-9)


def test_serve_after_is_an_error_over_full_tcp() -> None:
    text = one_link_tcp('{ kind = "http", version = "1.1", serve_after = "request_ack" }', "1s", "10Mb", "1ms", limit=100000, window=100000)
    text = text.replace('kind = "tcp", variant = "newreno", window = 100000, syn = false', 'kind = "tcp_full"')
    with pytest.raises(nsim.ScenarioError, match=r"flows\[0\]\.app\.serve_after.*one-way"):
        nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").validate()


def test_ccdf_of_page_times_and_echo_delays(tmp_path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from nsim import plots

    r = run('{ kind = "http", version = "1.1", count = 3, think = { dist = "uniform", mean = "100ms" } }')
    fig = plots.plot_ccdf(r, kind="page")
    ax = fig.axes[0]
    assert ax.get_title() == "CCDF of page download times"
    y = ax.get_lines()[0].get_ydata()
    assert y[0] == 1.0 and y[-1] == 0.0
    with pytest.raises(ValueError, match="'echo'"):
        plots.plot_ccdf(r, kind="echo")
    fig.savefig(tmp_path / "pages.png")


def test_python_builder_selects_the_web_apps() -> None:
    tcp = {"kind": "tcp", "variant": "newreno", "packet_size": "60B", "syn": False}
    scn = (
        nsim.Scenario(duration="5s")
        .hosts("s", "d")
        .link("s", "d", rate="10Mb", delay="10ms")
        .flow("s", "d", nsim.app("telnet", size="60B", count=5), name="tn", transport=tcp)
        .flow("s", "d", nsim.app("http", version="1.1", count=2), name="web", transport={"kind": "tcp", "variant": "newreno"})
    )
    t = scn.run().transfers
    assert t.groupby("kind").size().to_dict() == {"echo": 5, "object": 18, "page": 2}


def test_webtraf_object_sizes_are_ns2_paretoII_packets() -> None:
    # ns-2 RNG::paretoII(scale, shape) = scale (U^(-1/shape) - 1), scale = mean (shape - 1):
    # a Lomax distribution; WebTraf takes ceil() packets. P(ceil(X) <= n) = F(n).
    app = ('{ kind = "http", version = "1.1", count = 400, think = { dist = "exponential", mean = "1ms" }, '
           'page = { kind = "webtraf", objects = 2, mean = 12, shape = 1.2 } }')
    t = run(app, duration="3000s", rate="1Gb", delay="1ms", tcp='packet_size = "1000B", initial_window = 1000').transfers
    assert (t["kind"] == "page").sum() == 400
    pkts = (t[t["kind"] == "object"]["bytes"] // 1000).to_numpy()
    assert len(pkts) == 800 and pkts.min() >= 1
    lomax = stats.lomax(c=1.2, scale=12 * 0.2)
    edges = [0, 1, 2, 3, 5, 10, 30]
    observed = [((pkts > a) & (pkts <= b)).sum() for a, b in zip(edges, edges[1:])] + [(pkts > edges[-1]).sum()]
    cdf = [lomax.cdf(e) for e in edges] + [1.0]
    expected = [len(pkts) * (cdf[i + 1] - cdf[i]) for i in range(len(edges))]
    assert stats.chisquare(observed, expected).pvalue > 0.01
