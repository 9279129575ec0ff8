"""A link fails and is repaired; then the same run steered from Python.

Covers: [[event]] down/up, rerouting (ns-2 Session routing), link_down drops, the events
table, the throughput dip and recovery, nsim.Simulation (pause, look, change, resume, call
back at a simulated time).
Scenario: scenarios/failover_longer_path.toml (r1-r2 down from 5 s to 10 s; the flows move
to the longer way through r3 and back).
"""

import nsim

SCENARIO = "scenarios/failover_longer_path.toml"

res = nsim.run(SCENARIO)
print(res.event_log.to_string(index=False))
f = res.flows.set_index("name")
print(f[["delivered_pkts", "drops_link_down", "drops_overflow"]].to_string())
thr = res.series("flow_throughput")
tcp = thr[thr["name"] == "tcp"].set_index("time_s")["throughput_bps"]
for t0, t1 in [(4.0, 5.0), (5.0, 5.5), (5.5, 10.0), (10.0, 15.0)]:
    mean = tcp[(tcp.index > t0) & (tcp.index <= t1)].mean()
    print(f"tcp throughput {t0:4.1f}-{t1:4.1f} s: {mean / 1e6:.2f} Mb/s")
print("accounting balanced:", res.balanced)

# The same run, paused before the failure, looked at, and given a faster backup path.
sim = nsim.Simulation(SCENARIO)
sim.run(until="4.9s")
print(sim.flows()[["name", "cwnd", "srtt_s", "delivered_pkts"]].to_string(index=False))
sim.set_link("r1-r3", rate="3Mb")
sim.set_link("r3-r2", rate="3Mb")
sim.at("7s", lambda s: print(f"at {s.now} s the backup queue holds",
                             int(s.links().query("`from` == 'r1' and to == 'r3'")["len_pkts"].iloc[0]), "packets"))
sim.run()
faster = sim.results()
print("tcp delivered with the faster backup:", int(faster.flows.set_index("name").loc["tcp", "delivered_pkts"]))
