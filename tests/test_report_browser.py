"""The HTML reports as a person sees them: rendered by headless Chromium 1400 px wide, nothing
overflows the page or scrolls sideways, and every figure is present and decoded (issue 30).

Needs the `chromium` binary (Debian: `apt-get install -y chromium`); skipped with a notice
when it is not on PATH."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not on PATH (Debian: apt-get install -y chromium)")

#: Viewport width the reports must fit; and the width of an A4 page printed to PDF (210 mm
#: at 96 px per inch, less Chromium's default margins).
WIDTH = 1400
PRINT_WIDTH = 720

#: Run after load: the page's width, every element that reaches past the viewport or scrolls
#: sideways inside, and each image's decoded and shown width, written into the DOM as JSON.
MEASURE_JS = """
window.addEventListener("load", function () {
  var vw = document.documentElement.clientWidth, wide = [];
  document.querySelectorAll("body *").forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 0.5) wide.push(el.tagName + " reaches " + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      wide.push(el.tagName + "." + el.className + " scrolls " + el.scrollWidth + " > " + el.clientWidth);
  });
  var images = Array.from(document.images).map(function (i) {
    return {alt: i.alt, natural: i.naturalWidth, shown: Math.round(i.getBoundingClientRect().width)};
  });
  var out = document.createElement("pre");
  out.id = "nsim-measure";
  out.textContent = JSON.stringify({viewport: vw, page: document.documentElement.scrollWidth, wide: wide, images: images});
  document.body.appendChild(out);
});
"""


def chromium(*args: str, width: int = WIDTH) -> str:
    """Headless Chromium ``width`` px wide (root needs --no-sandbox); its stdout."""
    p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},1000", "--virtual-time-budget=10000", *args],
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def measure(html: str, tmp_path: Path, width: int = WIDTH) -> dict:
    """Render ``html`` ``width`` px wide and return what MEASURE_JS found."""
    page = tmp_path / "measured.html"
    page.write_text(html.replace("</body>", f"<script>{MEASURE_JS}</script></body>"), encoding="utf-8")
    dom = chromium("--dump-dom", page.as_uri(), width=width)
    found = re.search(r'<pre id="nsim-measure">(.*?)</pre>', dom, re.S)
    assert found, "the measuring script did not run"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&"))


def assert_fits(m: dict, figures: int, width: int = WIDTH) -> None:
    assert m["viewport"] <= width and m["page"] <= m["viewport"], m
    assert m["wide"] == [], m["wide"][:10]
    assert len(m["images"]) == figures
    for img in m["images"]:  # decoded, and scaled to fit rather than cut
        assert img["natural"] > 0 and 0 < img["shown"] <= m["viewport"], img


def test_large_grid_sweep_report_fits_1400_px(tmp_path):
    from nsim.report import render_sweep_report
    from test_sweep_plots import tcp_grid

    grid = tcp_grid(tmp_path / "sw")
    html = render_sweep_report(grid.out)
    for width in (WIDTH, PRINT_WIDTH):
        m = measure(html, tmp_path, width)
        assert_fits(m, figures=4, width=width)
        assert [i["alt"] for i in m["images"]] == [f"{k} plot" for k in ("goodput_bps", "loss_rate", "delay_mean_s", "retransmits")]
    pdf = tmp_path / "report.pdf"
    chromium(f"--print-to-pdf={pdf}", "--no-pdf-header-footer", (tmp_path / "measured.html").as_uri())
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 50_000


def test_run_report_with_topology_fits_1400_px_and_a4(tmp_path):
    import nsim
    from conftest import SCENARIOS
    from nsim.report import render_report

    res = nsim.load(SCENARIOS / "tcp_reno_dumbbell.toml").run(until="10s")
    html = render_report(res)
    for width in (WIDTH, PRINT_WIDTH):  # the tables shrink on narrow pages and in print
        m = measure(html, tmp_path, width)
        assert_fits(m, figures=5, width=width)
        assert [i["alt"] for i in m["images"]] == ["topology", "cwnd plot", "queue plot", "ccdf plot", "goodput plot"]


def test_largest_grid_sweep_report_fits(tmp_path):
    # 10 x 10 x 20 seeds x 4 flows: the per-point table has 100 rows, each figure 10 panels
    from nsim.report import render_sweep_report
    from test_sweep_plots import large_grid_dir

    large_grid_dir(tmp_path / "big")
    html = render_sweep_report(tmp_path / "big")
    for width in (WIDTH, PRINT_WIDTH):
        assert_fits(measure(html, tmp_path, width), figures=2, width=width)
