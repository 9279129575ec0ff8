"""Plots render to non-empty files with the expected axes and series (checked on matplotlib
objects, not pixels)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from nsim import plots


class FakeResults:
    """The parts of nsim.Results the plots read, with two flows and two queues."""

    def __init__(self):
        t = np.arange(1, 21) * 0.5
        self.flows = pd.DataFrame(
            {
                "flow": [0, 1],
                "name": ["a", "b"],
                "goodput_bps": [3e6, 1e6],
                "delay_mean_s": [0.02, 0.05],
                "completion_s": [np.nan, np.nan],
            }
        )
        self._series = {
            "flow_throughput": pd.DataFrame(
                [{"time_s": x, "flow": f, "name": n, "delivered_bytes": b, "throughput_bps": b * 16.0}
                 for x in t for f, n, b in ((0, "a", 2000), (1, "b", 600))]
            ),
            "queue": pd.DataFrame(
                [{"time_s": x, "link": l, "from": fr, "to": to, "len_pkts": q, "len_bytes": q * 1000}
                 for x in t for l, fr, to, q in ((0, "r1", "r2", int(x) % 5), (1, "r2", "r1", 0))]
            ),
            "tcp": pd.DataFrame(
                [{"time_s": x, "flow": f, "name": n, "cwnd_pkts": 1 + x * (f + 1),
                  "ssthresh_pkts": np.inf if x < 3 else 8.0, "srtt_s": 0.1, "rto_s": 1.0,
                  "in_flight_pkts": 1, "in_flight_bytes": 1000, "state": "open"}
                 for x in t for f, n in ((0, "a"), (1, "b"))]
            ),
        }
        self.series_kinds = list(self._series)

    def series(self, kind):
        return self._series[kind]


@pytest.fixture
def res():
    return FakeResults()


def saved(fig, tmp_path, name):
    path = tmp_path / name
    fig.savefig(path)
    assert path.stat().st_size > 1000
    return path


def test_cwnd_plot(res, tmp_path):
    fig = plots.ResultsPlotter(res).cwnd()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "time (s)" and ax.get_ylabel() == "window (packets)"
    assert len(ax.get_lines()) == 4  # window + ssthresh per flow (no receiver window known)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["a min(cwnd, window)", "a ssthresh", "b min(cwnd, window)", "b ssthresh"]
    # each flow keeps one colour for both of its lines
    assert ax.get_lines()[0].get_color() == ax.get_lines()[1].get_color()
    saved(fig, tmp_path, "cwnd.png")


def test_throughput_plot_windowed(res, tmp_path):
    fig = plots.plot_throughput(res, window_s=1.0, fair_share_bps=2e6)
    ax = fig.axes[0]
    assert ax.get_ylabel() == "throughput (Mb/s)"
    assert len(ax.get_lines()) == 3  # two flows + fair share
    a = ax.get_lines()[0].get_ydata()
    # 2000 B every 0.5 s: 32 kb/s; over a 1 s window from t = 1 s on
    assert a[-1] == pytest.approx(0.032)
    assert "1 s window" in ax.get_title()
    saved(fig, tmp_path, "tput.svg")


def test_queue_plot_skips_idle_queues(res, tmp_path):
    fig = plots.plot_queue(res)
    ax = fig.axes[0]
    assert ax.get_ylabel() == "queue length (packets)"
    assert [l.get_label() for l in ax.get_lines()] == ["r1→r2"]
    assert plots.plot_queue(res, links=[0, 1], in_bytes=True).axes[0].get_ylabel() == "queue length (bytes)"
    saved(fig, tmp_path, "queue.png")


def test_ccdf_plot_defaults_to_delay_without_completion_times(res, tmp_path):
    fig = plots.plot_ccdf(res)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "mean one-way delay (s)" and ax.get_ylabel() == "P(X > x)"
    assert "delay_mean" not in ax.get_title()
    assert len(ax.get_lines()) == 1
    y = ax.get_lines()[0].get_ydata()
    assert list(y) == [1.0, 0.5, 0.0]
    saved(fig, tmp_path, "ccdf.png")


def test_goodput_bars(res, tmp_path):
    fig = plots.plot_goodput(res)
    ax = fig.axes[0]
    assert len(ax.patches) == 2 and ax.get_ylabel() == "goodput (Mb/s)"
    assert [p.get_height() for p in ax.patches] == [3.0, 1.0]
    assert "Jain index 0.800" in ax.get_title()  # 16 / (2 * 10)
    saved(fig, tmp_path, "goodput.svg")


def test_many_flows_legend_goes_outside_then_flows_aggregate():
    t = np.arange(1, 5) * 1.0
    df = pd.DataFrame([{"time_s": x, "flow": f, "name": f"f{f}", "delivered_bytes": 100 * (f + 1)}
                       for x in t for f in range(10)])
    ax = plots.plot_throughput(df, window_s=1.0).axes[0]
    assert len(ax.get_lines()) == 10
    assert ax.get_legend().get_bbox_to_anchor().x0 > ax.bbox.x1 - 1  # outside the axes
    df = pd.DataFrame([{"time_s": x, "flow": f, "name": f"f{f}", "delivered_bytes": 100 * (f + 1)}
                       for x in t for f in range(100)])
    ax = plots.plot_throughput(df, window_s=1.0).axes[0]
    assert len(ax.get_lines()) == 1 and len(ax.collections) == 2  # median, 25-75 % and 10-90 % bands
    assert [x.get_text() for x in ax.get_legend().get_texts()] == ["10-90 %", "25-75 %", "median of 100 flows"]
    # median of 100..10000 bytes per second over the flows = 5050 B/s = 40.4 kb/s
    assert ax.get_lines()[0].get_ydata()[-1] == pytest.approx(40.4)
    assert "100 flows" in ax.get_title()


def test_cwnd_shows_the_effective_window_min_cwnd_window(res):
    res.scenario = {"flows": [{"transport": {"kind": "tcp", "window": 4}}, {"transport": {"kind": "tcp"}}]}
    ax = plots.plot_cwnd(res).axes[0]
    lines = {l.get_label(): l for l in ax.get_lines()}
    assert max(lines["a min(cwnd, window)"].get_ydata()) == 4  # cwnd reaches 11, window 4
    assert max(lines["a cwnd"].get_ydata()) == 11  # drawn dotted where it exceeds the window
    assert max(lines["b min(cwnd, window)"].get_ydata()) == 20  # ns-2's default window_
    assert plots.tcp_windows({"flows": [{"repeat": 2, "transport": {"kind": "tcp", "window": 8}},
                                        {"transport": {"kind": "udp"}}, {"transport": {"kind": "tcp"}}]}) \
        == {0: 8.0, 1: 8.0, 3: 20.0}


def test_queue_plot_defaults_to_the_busiest_links(res):
    t = np.arange(1, 11) * 1.0
    res._series["queue"] = pd.DataFrame([{"time_s": x, "link": l, "from": f"n{l}", "to": "r", "len_pkts": l,
                                          "len_bytes": l * 1000} for x in t for l in range(8)])
    ax = plots.plot_queue(res).axes[0]
    assert [l.get_label() for l in ax.get_lines()] == ["n4→r", "n5→r", "n6→r", "n7→r"]
    assert "4 busiest of 7 busy" in ax.get_title()
    assert len(plots.plot_queue(res, busiest=8).axes[0].get_lines()) == 7  # never-busy n0 left out


def test_throughput_without_series_is_a_goodput_bar_chart(res):
    # a mean is one number per flow: bars, not flat lines against time (issue 30)
    del res._series["flow_throughput"]
    res.series_kinds = list(res._series)
    res.summary = {"sim_time_s": 10.0}
    ax = plots.plot_throughput(res).axes[0]
    assert "record \"flow_throughput\"" in ax.get_title()
    assert [p.get_height() for p in ax.patches] == [3.0, 1.0]  # goodput, Mb/s
    assert ax.get_xlabel() == "flow" and ax.get_ylabel() == "goodput (Mb/s)" and not ax.get_lines()
    assert "throughput" not in plots.available_kinds(res)  # the report shows the goodput bars once


def test_queue_plot_shows_red_average_thresholds_and_limit(res):
    q = res._series["queue"]
    res._series["queue"] = q.assign(avg_len=np.where(q["link"] == 0, q["len_pkts"] * 0.5, np.nan))
    res.scenario = {"links": [{"between": ["r1", "r2"], "rate": "1Mb", "delay": "1ms",
                               "queue": {"kind": "red", "limit": 6, "min_th": 1, "max_th": 3}}]}
    ax = plots.plot_queue(res).axes[0]
    labels = [l.get_label() for l in ax.get_lines()]
    assert labels[:2] == ["r1→r2", "r1→r2 RED average"]
    assert np.allclose(ax.get_lines()[1].get_ydata(), ax.get_lines()[0].get_ydata() * 0.5)
    levels = sorted(l.get_ydata()[0] for l in ax.get_lines() if l.get_label().startswith("_"))
    assert levels == [1, 3, 6]  # min_th, max_th, limit
    assert {t.get_text() for t in ax.texts} == {"min_th 1", "max_th 3", "limit 6"}
    # a DropTail direction gets no average line; in bytes, no packet thresholds
    assert [l.get_label() for l in plots.plot_queue(res, in_bytes=True).axes[0].get_lines()] == ["r1→r2"]


def test_missing_series_is_a_clear_error(res):
    res.series_kinds = ["queue"]
    with pytest.raises(ValueError, match="no 'tcp' or 'cwnd' series"):
        plots.plot_cwnd(res)


def test_available_kinds(res):
    assert plots.available_kinds(res) == ["cwnd", "throughput", "queue", "ccdf", "goodput"]


# -- on a real run, through the command line ----------------------------------------------

@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    import nsim

    from conftest import SCENARIOS

    out = tmp_path_factory.mktemp("run")
    nsim.run(SCENARIOS / "cbr_dumbbell.toml", seed=1, until="5s").save(out)
    return out


@pytest.mark.parametrize("kind,ext,ylabel,lines", [
    ("throughput", "svg", "throughput (kb/s)", 4),
    ("queue", "png", "queue length (packets)", 2),  # occupancy and the 10p limit it reaches
    ("ccdf", "png", "P(X > x)", 1),
])
def test_plot_command_writes_the_file(saved_run, tmp_path, kind, ext, ylabel, lines):
    from click.testing import CliRunner

    import nsim
    from nsim.cli.plot import command

    out = tmp_path / f"{kind}.{ext}"
    r = CliRunner().invoke(command, [str(saved_run), "--kind", kind, "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.stat().st_size > 1000
    ax = plots.KINDS[kind](nsim.Results.load(saved_run)).axes[0]
    assert ax.get_ylabel() == ylabel and len(ax.get_lines()) == lines


def test_plot_command_goodput_bars_and_bad_requests(saved_run, tmp_path):
    from click.testing import CliRunner

    from nsim.cli.plot import command

    r = CliRunner().invoke(command, [str(saved_run), "--kind", "goodput"])
    assert r.exit_code == 0 and (saved_run / "goodput.png").stat().st_size > 1000
    r = CliRunner().invoke(command, [str(saved_run), "--kind", "cwnd"])
    assert r.exit_code == 2 and "no 'tcp' or 'cwnd' series" in r.output
    r = CliRunner().invoke(command, [str(saved_run), "-o", str(tmp_path / "x.jpg")])
    assert r.exit_code == 2 and ".png, .svg, .pdf" in r.output


def test_plot_command_pdf_and_dpi(saved_run, tmp_path):
    from click.testing import CliRunner

    from nsim.cli.plot import command

    r = CliRunner().invoke(command, [str(saved_run), "-o", str(tmp_path / "t.pdf")])
    assert r.exit_code == 0 and (tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")
    sizes = []
    for dpi in (50, 200):
        CliRunner().invoke(command, [str(saved_run), "--dpi", str(dpi), "-o", str(tmp_path / f"{dpi}.png")])
        from matplotlib.image import imread

        sizes.append(imread(tmp_path / f"{dpi}.png").shape[1])
    assert sizes[1] == 4 * sizes[0]


def test_cwnd_plot_of_a_real_tcp_run(tmp_path):
    from click.testing import CliRunner

    import nsim
    from conftest import SCENARIOS
    from nsim.cli.plot import command

    nsim.run(SCENARIOS / "tcp_reno_dumbbell.toml", seed=1, until="5s").save(tmp_path)
    r = CliRunner().invoke(command, [str(tmp_path), "--kind", "cwnd", "-o", str(tmp_path / "cwnd.svg")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "cwnd.svg").stat().st_size > 1000
    ax = plots.plot_cwnd(nsim.Results.load(tmp_path)).axes[0]
    eff = [l for l in ax.get_lines() if l.get_label().endswith("min(cwnd, window)")]
    assert ax.get_ylabel() == "window (packets)" and len(eff) == 4  # 4 flows
    assert max(max(l.get_ydata()) for l in eff) > 1  # the window grew


SHIPPED = sorted(__import__("conftest").SCENARIOS.glob("*.toml"))


@pytest.mark.parametrize("scenario", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_scenario_runs_from_python_and_plots_by_default(scenario, tmp_path):
    """nsim.run() takes every scenario `nsim run` takes (record.trace included), and
    `nsim plot DIR` with the default kind works on its output."""
    from click.testing import CliRunner

    import nsim
    from nsim.cli.plot import command

    res = nsim.run(scenario, until="0.5s")
    if res.scenario.get("record", {}).get("trace"):
        assert __import__("os").path.getsize(res.summary["trace_path"]) > 0
    res.save(tmp_path)
    r = CliRunner().invoke(command, [str(tmp_path), "--dpi", "30"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "throughput-30dpi.png").stat().st_size > 500


def test_throughput_of_a_run_without_flows_or_series(res):
    res._series, res.series_kinds, res.summary = {}, [], {"sim_time_s": 2.0}
    res.flows = pd.DataFrame()
    ax = plots.plot_throughput(res).axes[0]
    assert len(ax.patches) == 0 and "record" in ax.get_title()


def test_plot_at_another_dpi_keeps_the_default_png(saved_run, tmp_path):
    # issue 30: `--dpi 300` silently replaced the 100 dpi throughput.png of the same name
    import shutil

    from click.testing import CliRunner

    from nsim.cli.plot import command

    run = tmp_path / "run"
    shutil.copytree(saved_run, run)
    assert CliRunner().invoke(command, [str(run), "--kind", "goodput"]).exit_code == 0
    before = (run / "goodput.png").read_bytes()
    r = CliRunner().invoke(command, [str(run), "--kind", "goodput", "--dpi", "300"])
    assert r.exit_code == 0 and f"wrote {run / 'goodput-300dpi.png'}" in r.output
    assert (run / "goodput.png").read_bytes() == before
    assert (run / "goodput-300dpi.png").stat().st_size > len(before)


def test_goodput_bars_of_many_flows_stay_page_wide(res):
    # 800 flows (a data-centre tree): one bar each, but no 280-inch figure or overprinted names
    n = 800
    res.flows = pd.DataFrame({"flow": range(n), "name": [f"h{i}" for i in range(n)], "goodput_bps": np.full(n, 1e5)})
    fig = plots.plot_goodput(res)
    ax = fig.axes[0]
    assert len(ax.patches) == n and fig.get_size_inches()[0] == plots.GOODPUT_WIDTH_MAX
    assert not ax.get_xticks().size and ax.get_xlabel() == "800 flows, in flow order"


def test_cc_plot_has_one_panel_per_variable_and_one_line_per_flow():
    t = np.arange(0, 10) * 0.1
    df = pd.DataFrame(
        [{"time_s": x, "flow": f, "name": n, "variable": v, "value": val}
         for x in t for f, n in ((0, "bbr"), (1, "bbr2"))
         for v, val in (("btl_bw_bps", 9.6e6 + f), ("state", 2.0), ("min_rtt_s", 0.04))]
    )
    fig = plots.plot_cc(df)
    assert [ax.get_ylabel() for ax in fig.axes] == [
        "bandwidth estimate BtlBw (Mb/s)", plots.CC_LABELS["state"], plots.CC_LABELS["min_rtt_s"]]
    assert [l.get_label() for l in fig.axes[0].get_lines()] == ["bbr", "bbr2"]
    assert fig.axes[0].get_lines()[0].get_ydata()[0] == pytest.approx(9.6)
    fig = plots.plot_cc(df, variables=["state"], flows=["bbr"])
    assert len(fig.axes) == 1 and len(fig.axes[0].get_lines()) == 1
    with pytest.raises(ValueError, match="no cc variable"):
        plots.plot_cc(df, variables=["alpha"])
