"""One self-contained HTML page for a run, with user strings escaped.

Covers: nsim.report (render_report, write_report).
Scenario: scenarios/cbr_dumbbell.toml renamed to a string with markup, seed 1, 5 s.
"""

import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import nsim
from nsim.report import render_report, write_report

sc = nsim.load("scenarios/cbr_dumbbell.toml")
sc.config["name"] = "CBR <dumbbell> & friends"
res = sc.run(seed=1, until="5s")

path = write_report(res, Path(tempfile.mkdtemp()) / "report.html")
html = path.read_text(encoding="utf-8")
print("escaped name present:", "CBR &lt;dumbbell&gt; &amp; friends" in html)
print("raw markup present:", "<dumbbell>" in html)
print("embedded PNG plots:", html.count("data:image/png;base64,"))
print("sections:", [s for s in ("Accounting", "Flows", "Queues", "Plots", "Scenario") if f"<h2>{s}</h2>" in html])
print("SVG variant plots:", render_report(res, image_format="svg").count("data:image/svg+xml;base64,"))
