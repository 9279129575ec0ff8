"""The web load each page model offers on the chapter-4 topology with nothing lost.

The thesis states the aggregate HTTP load of its 800-host mix with no other traffic and no loss
as "about 33 Mbps" (seed 002 §4.2; notes seed-002b §2.5) but not the page distributions it drew
from (Feldmann et al. 1999, parameters not given). This runs the web sessions of
`scenarios/ch4_mix.toml` alone (400 servers: 200 HTTP/1.0, 200 HTTP/1.1; no probes, Telnet or
FTP) with every router link at 10 Gb/s and every buffer 100,000 packets (the 1.5 Mb/s access
links are kept), once per page model, and prints the aggregate web goodput. It is a check of
the workload's size against the thesis's one published figure for it, not a reproduction row.

Usage: uv run python experiments/noureddine2002/lossless_web_load.py [--duration 40s]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import nsim

MIX = Path(__file__).parent / "scenarios" / "ch4_mix.toml"
THESIS_MBPS = 33.0


def lossless_web(page: str, duration: str) -> nsim.Scenario:
    """The chapter-4 mix reduced to its background web sessions with `page` pages, lossless."""
    d = nsim.load(MIX).to_dict()
    d["duration"] = duration
    for level in d["tree"]["levels"]:
        if level["prefix"] != "h":
            level["link"]["rate"] = "10Gb"
        for side in ("queue", "reverse_queue"):
            level["link"][side]["limit"] = "100000p"
    d["flows"] = [f for f in d["flows"] if f["name"].startswith(("web10_", "web11_"))]
    for f in d["flows"]:
        f["app"]["page"] = {"kind": page}
    return nsim.Scenario.from_dict(d, source=f"{MIX.name} (lossless web, {page} pages)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", default="40s", help="simulated time per run (default 40s)")
    args = ap.parse_args()
    print(f"thesis: about {THESIS_MBPS:.0f} Mb/s of web traffic on the lossless 800-host topology")
    for page in ("surge", "webtraf"):
        res = nsim.run(lossless_web(page, args.duration))
        mbps = res.flows["goodput_bps"].sum() / 1e6
        drops = int(res.flows["dropped_bytes"].sum())
        print(f"{page:8s} pages: {mbps:6.1f} Mb/s of web goodput ({mbps / THESIS_MBPS:.2f}x the thesis), {drops} bytes dropped")


if __name__ == "__main__":
    main()
