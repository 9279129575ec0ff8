"""Sweep the bottleneck buffer and the CBR jitter over three seeds, then resume it.

Covers: nsim.sweep(), nsim.sweep.load_sweep and SweepSpec, resuming from the cache, per-point
means with 95 % confidence intervals, per-run Jain index with the df.nsim accessor.
Scenario: sweeps/example_sweep.toml: scenarios/cbr_dumbbell.toml with the bottleneck
queue limit in {10, 25, 50} packets and CBR jitter in {0, 0.5}, seeds 1-3 (18 runs).
"""

import tempfile

import nsim
from nsim import metrics
from nsim.sweep import SweepSpec, load_sweep

WORKERS = 2  # local worker processes
LIMIT = "dumbbell.bottleneck.queue.limit"
JITTER = "flows[0].app.jitter"

out = tempfile.mkdtemp()
spec = load_sweep("sweeps/example_sweep.toml")
first = nsim.sweep(spec, out=out, workers=WORKERS)
print(f"first call: {first.ran} ran, {first.cached} cached, {first.failed} failed")
again = nsim.sweep(spec, out=out, workers=WORKERS)
print(f"second call: {again.ran} ran, {again.cached} cached")

t = first.table
print("table:", t.shape, list(t.columns[:6]))
s = first.summary
cbr0 = s[s["name"] == "cbr0"][[LIMIT, JITTER, "loss_rate_mean", "loss_rate_ci95", "loss_rate_n"]]
print(cbr0.round(4).to_string(index=False))

jain = t.nsim.jain(by=[LIMIT, JITTER, "seed"]).rename("jain").reset_index()
print(metrics.summarize(jain, "jain", by=[JITTER]).round(4).to_string(index=False))

# A sweep built in Python: the same scenario at two durations, two seeds.
base = nsim.load("scenarios/cbr_dumbbell.toml").to_dict()
durations = nsim.sweep(SweepSpec(base, {"duration": ["5s", "10s"]}, seeds=[1, 2]),
                  out=tempfile.mkdtemp(), workers=WORKERS)
print(durations.table.groupby("duration")["delivered_pkts"].sum().to_dict())
