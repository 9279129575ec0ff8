"""How evenly do four CBR flows share an overloaded bottleneck, and what would TCP get?

Covers: nsim.metrics (goodput, Jain, normalized throughput, windowed rate, CoV, CCDF,
loss rate), the df.nsim accessor, nsim.analytic (Mathis, PFTK, TFRC).
Scenario: scenarios/cbr_dumbbell.toml, four 450 kb/s CBR flows through a 1.5 Mb/s
bottleneck with a 25-packet DropTail queue (120 % load), 20 s, seed 1.
"""

import nsim
from nsim import analytic, metrics

BOTTLENECK_BPS = 1.5e6  # bottleneck rate, bit/s
WINDOW_S = 3.0  # Holl's windowed-average window, seconds

res = nsim.run("scenarios/cbr_dumbbell.toml", seed=1)

gp = metrics.goodput(res.flows)  # bit/s per flow name
print("goodput (kb/s):", (gp / 1e3).round(1).to_dict())
print(f"Jain index: {metrics.jain(gp):.4f}")
print("normalized to the fair share:",
      metrics.normalized_throughput(gp, BOTTLENECK_BPS).round(3).tolist())
print("loss rate:", res.flows.nsim.loss_rate().round(3).tolist())

tput = res.series("flow_throughput")
w = tput.nsim.windowed(WINDOW_S)
late = w[w["time_s"] > 10.0]
print("windowed rate after 10 s, mean (kb/s):",
      (late.groupby("name")["throughput_bps"].mean() / 1e3).round(1).to_dict())
print("CoV of each flow's windowed rate after 10 s:",
      late.groupby("name")["throughput_bps"].agg(metrics.cov).round(4).to_dict())
print("mean rate 10-20 s (kb/s):", (tput.nsim.mean_rate(10.0, 20.0) / 1e3).round(1).to_dict())

c = metrics.ccdf(res.flows["delay_mean_s"] * 1e3)
print("CCDF of mean delay (ms):", list(zip(c["value"].round(2), c["ccdf"])))

# A Reno flow with 1460-byte segments, 100 ms RTT and 1 % loss:
print(f"Mathis (ACK every packet): {analytic.mathis_bps(1460, 0.1, 0.01) / 1e6:.3f} Mb/s")
print(f"PFTK (b=2, T0=0.4 s, W_max=64): "
      f"{analytic.pftk_bps(1460, 0.1, 0.01, t0_s=0.4, w_max_pkts=64) / 1e6:.3f} Mb/s")
print(f"TFRC (RFC 5348, b=1, t_RTO=4R): {analytic.tfrc_bps(1460, 0.1, 0.01) / 1e6:.3f} Mb/s")
