"""ns-2.35 (ch4.csv) against nsim (a sweep of nsim_ch4.sweep.toml) on Holl 2003's chapter-4
point at 17 calls: per TCP, queue and start mode the seeds' mean and range of the calls' loss,
the BE mean and std dev and the calls' delay, then the six TCPs' BE means and RED's cost.
nsim's runs are reduced by the study's own reducer (experiments/holl2003/reduce.py, per_run).

    python -m nsim sweep reference/ns2/holl2003_ch4/nsim_ch4.sweep.toml -j 1 -o /tmp/holl-ns2-nsim
    python reference/ns2/holl2003_ch4/compare.py /tmp/holl-ns2-nsim > /tmp/compare.md

With a second directory (a sweep of nsim_whatif.sweep.toml) it also sets whatif.csv's runs that
nsim can express (the calls' phase and CBR random_) beside nsim's.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
STUDY = HERE.parents[2] / "experiments" / "holl2003"
QUEUES = {"DropTail": "droptail", "RED": "red", "REDauto": "red_auto"}
TCPS = {"Tahoe": "tahoe", "Reno": "reno", "Newreno": "newreno", "Vegas": "vegas", "Sack1": "sack1", "Fack": "fack"}
STATS = ["cbr_loss_pct", "be_mean_bps", "be_std_bps", "cbr_delay_ms"]


def _study_reducer():
    spec = importlib.util.spec_from_file_location("holl2003_reduce", STUDY / "reduce.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _queue(spec: str) -> str:
    q = json.loads(spec)
    return "red_auto" if q["kind"] == "red" and q.get("q_weight") == "auto" else q["kind"]


def nsim_runs(sweep_dir: Path) -> pd.DataFrame:
    """One row per nsim run: queue, tcp, jitter, seed and the study reducer's statistics."""
    table = pd.read_parquet(sweep_dir / "table.parquet")
    keys = {"qspec": "links[0].queue", "variant": "flows[0].transport", "jitter_s": "flows[0].start_jitter", "seed": "seed"}
    df = _study_reducer().per_run(table, keys)
    return df.assign(queue=df["qspec"].map(_queue), tcp=df["variant"], jitter=(df["jitter_s"] != "0s").astype(int))


def ns2_runs(csv: Path) -> pd.DataFrame:
    """One row per ns-2.35 run of ch4.csv, with nsim's queue and TCP names."""
    df = pd.read_csv(csv)
    return df.assign(queue=df["queue"].map(QUEUES), tcp=df["tcp"].map(TCPS))


#: The STATS columns' table header.
STATS_HEADER = "CBR loss % | BE mean b/s | BE std b/s | CBR delay ms |"


def _cells(d: pd.DataFrame) -> str:
    """The STATS columns of some runs as table cells: mean [min-max] over the runs."""
    def cell(c: str) -> str:
        x, fmt = d[c], ".2f" if c in ("cbr_loss_pct", "cbr_delay_ms") else ".0f"
        return f"{x.mean():{fmt}} [{x.min():{fmt}}-{x.max():{fmt}}]"
    return " | ".join(cell(c) for c in STATS) + " |"


def per_point(ns2: pd.DataFrame, nsim: pd.DataFrame) -> str:
    """Markdown table: each (queue, tcp, jitter) point, both simulators, mean [min-max] over seeds."""
    lines = ["| queue | tcp | jitter | sim | " + STATS_HEADER, "|---" * 8 + "|"]
    for (q, t, j), a in ns2.groupby(["queue", "tcp", "jitter"]):
        b = nsim[(nsim["queue"] == q) & (nsim["tcp"] == t) & (nsim["jitter"] == j)]
        for name, d in (("ns-2.35", a), ("nsim", b)):
            if len(d):
                lines.append(f"| {q} | {t} | {j} | {name} ({len(d)}) | " + _cells(d))
    return "\n".join(lines)


def red_cost(ns2: pd.DataFrame, nsim: pd.DataFrame) -> str:
    """Markdown table: the six TCPs' BE mean per queue and RED's cost, per simulator and start mode."""
    lines = ["| sim | jitter | TCPs | Drop-Tail BE | RED BE | RED cost % | REDauto BE | REDauto cost % |", "|---" * 8 + "|"]
    for name, d in (("ns-2.35", ns2), ("nsim", nsim)):
        for j, g in d.groupby("jitter"):
            common = set.intersection(*(set(g[g["queue"] == q]["tcp"]) for q in QUEUES.values()))
            if not common:  # a partial ch4.csv: no TCP has all three queues yet
                continue
            g = g[g["tcp"].isin(common)]
            be = g.groupby("queue")["be_mean_bps"].mean()
            dt = be.get("droptail")
            cells = [f"{be.get(q, float('nan')):.0f} | {100 * (dt - be.get(q, float('nan'))) / dt:.1f}" for q in ("red", "red_auto")]
            lines.append(f"| {name} | {j} | {len(common)} | {dt:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: whatif.csv labels nsim can run: (flows[1].start_jitter, CBR jitter) of nsim_whatif.sweep.toml.
WHATIF = {"baseline": ("0s", False), "cbr_phase_1ms": ("1ms", False), "cbr_phase": ("8ms", False),
          "cbr_random": ("0s", True)}


def whatif(whatif_dir: Path) -> str:
    """Markdown table: whatif.csv's call-phase runs against nsim's, NewReno, no start jitter."""
    table = pd.read_parquet(whatif_dir / "table.parquet")
    keys = {"qspec": "links[0].queue", "phase": "flows[1].start_jitter", "app": "flows[1].app", "seed": "seed"}
    nsim = _study_reducer().per_run(table, keys)
    nsim = nsim.assign(queue=nsim["qspec"].map(_queue), random=nsim["app"].str.contains("jitter"))
    ns2 = pd.read_csv(HERE / "whatif.csv")
    ns2 = ns2.assign(queue=ns2["queue"].map(QUEUES))
    lines = ["| what-if | queue | sim | " + STATS_HEADER, "|---" * 7 + "|"]
    for label, (phase, random) in WHATIF.items():
        for q in ("droptail", "red"):
            a = ns2[(ns2["label"] == label) & (ns2["queue"] == q)]
            b = nsim[(nsim["queue"] == q) & (nsim["phase"] == phase) & (nsim["random"] == random)]
            for name, d in (("ns-2.35", a), ("nsim", b)):
                if len(d):
                    lines.append(f"| {label} | {q} | {name} ({len(d)}) | " + _cells(d))
    return "\n".join(lines)


def fack_echo(ns2: pd.DataFrame, nsim: pd.DataFrame) -> str:
    """Markdown table: FACK without start jitter in ns-2.35 as is, in ns-2.35 with its sinks
    echoing the arriving segment's timestamp (whatif.csv fack_ts_echo), and in nsim."""
    alt = pd.read_csv(HERE / "whatif.csv")
    alt = alt[alt["label"] == "fack_ts_echo"].assign(queue=lambda d: d["queue"].map(QUEUES))
    lines = ["| queue | run | " + STATS_HEADER, "|---" * 6 + "|"]
    for q in ("droptail", "red"):
        for name, d in (("ns-2.35", ns2), ("ns-2.35 ts_echo_bugfix_ false", alt), ("nsim", nsim)):
            d = d[(d["queue"] == q) & (d["jitter"] == 0) & (d["tcp"].str.lower() == "fack")]
            if len(d):
                lines.append(f"| {q} | {name} ({len(d)}) | " + _cells(d))
    return "\n".join(lines)


def main(sweep_dir: str, whatif_dir: str | None = None) -> None:
    """Print the tables for ch4.csv against the nsim sweep in ``sweep_dir`` (and whatif.csv
    against the one in ``whatif_dir``)."""
    ns2, nsim = ns2_runs(HERE / "ch4.csv"), nsim_runs(Path(sweep_dir))
    print(per_point(ns2, nsim))
    print()
    print(red_cost(ns2, nsim))
    print()
    print(fack_echo(ns2, nsim))
    if whatif_dir:
        print()
        print(whatif(Path(whatif_dir)))


if __name__ == "__main__":
    main(*sys.argv[1:3])
