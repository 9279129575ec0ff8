"""The HTML report: self-contained, with tables and plots, and every user string escaped."""

import matplotlib

matplotlib.use("Agg")

import pytest

import nsim
from nsim import report
from test_plots import FakeResults

XSS = "<script>alert(1)</script>"


class ReportResults(FakeResults):
    """FakeResults plus the summary, accounting and scenario the report shows."""

    balanced = nsim.Results.balanced  # the real rule, not a copy


def results_named(name):
    res = ReportResults()
    res.summary = {"scenario": name, "seed": 1, "sim_time_s": 10.0, "events": 1234,
                   "wall_s": 0.01, "events_per_s": 123400.0, "interrupted": False}
    res.accounting = {"created": 10, "delivered": 7, "dropped": 2, "queued": 1, "in_flight": 0,
                      "dropped_by_reason": {"overflow": 2}}
    res.scenario = {"name": name, "duration": "10s"}
    res.flows = res.flows.assign(name=[f"a{XSS}", "b"], drops_overflow=[2, 0], drops_codel=[0, 0])
    res.queues = __import__("pandas").DataFrame(
        {"link": [0], "from": ["r1"], "to": [XSS], "arrivals": [9], "dropped_pkts": [2],
         "utilization": [0.5]})
    return res


def test_report_escapes_markup_in_user_strings(tmp_path):
    path = report.write_report(results_named(XSS), tmp_path / "report.html")
    html = path.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html.lower()  # the page's only script is its own sorter
    assert html.lower().count("<script") == 1
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # in the title, the heading, the summary, a flow name, a node name, the scenario JSON
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6


def test_report_is_self_contained_with_tables_and_plots(tmp_path):
    html = report.render_report(results_named("dumbbell"), image_format="svg")
    assert "src=\"http" not in html and "href=\"http" not in html
    assert html.count("data:image/svg+xml;base64,") == 6  # topology, cwnd, throughput, queue, ccdf, goodput
    assert "<h2>Topology</h2>" in html and "<h2>Flows</h2>" in html and "<h2>Queues</h2>" in html
    assert "overflow drops" in html and "codel drops" not in html  # all-zero reasons left out
    assert "the totals balance" in html and "<th>in flight</th>" in html


def test_report_flags_unbalanced_accounting():
    res = results_named("x")
    res.accounting["delivered"] = 6
    assert "do not balance" in report.render_report(res)


def test_report_rejects_unknown_image_format():
    with pytest.raises(ValueError, match="image_format"):
        report.render_report(results_named("x"), image_format="gif")


def test_report_command_on_a_real_run(tmp_path):
    from click.testing import CliRunner

    import nsim
    from conftest import SCENARIOS
    from nsim.cli.report import command

    sc = nsim.load(SCENARIOS / "cbr_dumbbell.toml")
    sc.config["name"] = XSS
    sc.run(seed=1, until="3s").save(tmp_path / "run")
    r = CliRunner().invoke(command, [str(tmp_path / "run")])
    assert r.exit_code == 0, r.output
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert html.lower().count("<script") == 1 and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.count("data:image/png;base64,") == 5  # topology, throughput, queue, ccdf, goodput
    summary = html[:html.index("<h2>Accounting</h2>")]
    assert "<th>simulated time (s)</th><td>3</td>" in summary and "<th>events per second</th>" in summary
    assert "sim_time_s" not in summary and "e+0" not in summary
    flows = html[html.index("<h2>Flows</h2>"):html.index("<h2>Queues</h2>")]
    heads = flows[flows.index("<thead>"):flows.index("</thead>")]
    assert heads.count(">flow<") == 1 and "drops_" not in heads and "late_pkts" not in heads
    # the busiest direction (the bottleneck, all the drops) heads the open Queues table
    queues = html[html.index("<h2>Queues</h2>"):html.index("<h2>Plots</h2>")]
    first = queues[queues.index("<tbody>"):queues.index("</tr>", queues.index("<tbody>"))]
    assert '>r0</td><td data-v="r1"' in first
    assert queues.index("<tbody>") < queues.index("<details>")


def test_topology_picture_highlights_the_bottleneck():
    import nsim
    from conftest import SCENARIOS
    from nsim.topology import bottleneck
    from nsim.topology_plot import plot_topology

    res = nsim.load(SCENARIOS / "tcp_reno_dumbbell.toml").run(until="5s")
    assert bottleneck(res.queues) == ("r0", "r1")
    ax = plot_topology(res).axes[0]
    thick = [l for l in ax.get_lines() if l.get_linewidth() > 2]
    assert len(thick) == 1 and [tuple(thick[0].get_xdata())] == [(-0.5, 0.5)]  # r0 left of r1, centred
    texts = [t.get_text() for t in ax.texts]
    assert "1.5 Mb/s, 20 ms" in texts and texts.count("10 Mb/s, 2 ms") == 2  # s0-r0 and r1-d0
    assert {"s0", "s3", "r0", "r1", "d0", "d3"} <= set(texts)
    assert "bottleneck (red): r0→r1" in ax.get_title()


def test_report_tables_key_columns_first_formatted_and_sortable():
    res = results_named("x")
    res.flows = res.flows.assign(throughput_bps=[1234567.0, 2e6], delay_mean_s=[0.0123, 0.02],
                                 delivered_pkts=[12345, 7])
    html = report.render_report(res)
    flows = html[html.index("<h2>Flows</h2>"):html.index("<h2>Queues</h2>")]
    heads = flows[flows.index("<thead>"):flows.index("</thead>")]
    assert heads.index("flow") < heads.index("throughput (Mb/s)") < heads.index("delay mean (ms)")
    assert ">1.235</td>" in flows and ">12.30</td>" in flows and ">12,345</td>" in flows
    assert 'data-v="12345.0"' in flows  # sort key: the plain number
    assert 'class="sortable"' in flows and "<script>" in html and "src=" not in html.split("<script>")[1]


def test_report_collapses_long_tables_and_shows_classes():
    import pandas as pd

    res = results_named("x")
    res.flows = pd.concat([res.flows] * 15, ignore_index=True)  # 30 rows
    res.classes = pd.DataFrame({"link": [0, 0], "from": ["r1", "r1"], "to": ["r2", "r2"],
                                "class": ["voice", "data"], "arrivals": [10, 20], "departures": [10, 15]})
    html = report.render_report(res)
    assert "<h2>Classes</h2>" in html and ">voice</td>" in html
    flows = html[html.index("<h2>Flows</h2>"):html.index("<h2>Queues</h2>")]
    assert "<details><summary>30 rows" in flows
    queues = html[html.index("<h2>Queues</h2>"):html.index("<h2>Classes</h2>")]
    assert "<details>" not in queues


def test_sweep_report(tmp_path):
    from click.testing import CliRunner

    from nsim.cli.report import command
    from nsim.sweeps import sweep
    from test_sweep import spec_for

    spec = spec_for(tmp_path, limits=("5p", "20p"), seeds=(1, 2), duration="1s")
    spec.metrics = ["goodput_bps", "delay_mean_s"]
    sweep(spec, out=tmp_path / "sw", workers=1)
    r = CliRunner().invoke(command, [str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    html = (tmp_path / "sw" / "report.html").read_text(encoding="utf-8")
    assert html.index("<h2>Per grid point</h2>") < html.index("<h2>Per flow</h2>") < html.index("<h2>Plots</h2>")
    assert "goodput per flow (kb/s)" in html and " ± " in html
    assert html.count("data:image/png;base64,") == 2  # one plot per metric
    assert "limit = dumbbell.bottleneck.queue.limit (5p, 20p)" in html
