"""Two hops, one bottleneck: how much of a 1.2 Mb/s CBR stream fits through 1 Mb/s?

Covers: Scenario builder, DropTail limit, per-flow and per-queue results, queue series.
Scenario: a -(10 Mb/s, 20 ms)- r -(1 Mb/s, 5 ms, DropTail 20 packets)- b, one CBR flow of
1000-byte packets at 1.2 Mb/s for 10 s.
"""

import nsim

CBR_RATE = "1.2Mb"  # offered load, 20 % above the bottleneck
BOTTLENECK = "1Mb"
QUEUE_LIMIT = "20p"  # packets

sc = nsim.Scenario("two hops", duration="10s")
sc.hosts("a", "b").routers("r")
sc.link("a", "r", rate="10Mb", delay="20ms")
sc.link("r", "b", rate=BOTTLENECK, delay="5ms", queue=nsim.queue("droptail", limit=QUEUE_LIMIT))
sc.flow("a", "b", nsim.app("cbr", rate=CBR_RATE, size="1000B"), name="voice")
sc.record(series=["queue"], interval="1s")

res = sc.run(seed=1)
f = res.flows.iloc[0]
print(f"sent {f.sent_pkts}, delivered {f.delivered_pkts}, dropped {f.drops_overflow} at the full queue")
print(f"throughput {f.throughput_bps / 1e6:.3f} Mb/s, delay mean {f.delay_mean_s * 1e3:.1f} ms, max {f.delay_max_s * 1e3:.1f} ms")
bottleneck = res.queues[(res.queues["from"] == "r") & (res.queues["to"] == "b")].iloc[0]
print(f"bottleneck utilization {bottleneck.utilization:.3f}, mean queue {bottleneck.mean_len_pkts:.1f} packets")
q = res.series("queue")
print(q[(q["from"] == "r") & (q["to"] == "b")][["time_s", "len_pkts"]].to_string(index=False))
print("accounting balanced:", res.balanced)
