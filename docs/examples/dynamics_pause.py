"""Flows that pause and resume; then the same flows steered from Python.

Covers: [[event]] pause/resume (ns-2 `$ftp stop` / `$ftp start`), the throughput of the flow
that keeps running, the events table; Simulation.pause_flow, resume_flow, start_flow,
stop_flow.
Scenario: scenarios/flow_pause_resume.toml (tcp2 paused from 5 s to 10 s, the CBR from 12 s
to 13 s, on a 2 Mb/s bottleneck shared with tcp1).
"""

import nsim

SCENARIO = "scenarios/flow_pause_resume.toml"

res = nsim.run(SCENARIO)
print(res.event_log.to_string(index=False))
thr = res.series("flow_throughput")
for name in ["tcp1", "tcp2"]:
    t = thr[thr["name"] == name].set_index("time_s")["throughput_bps"]
    means = [t[(t.index > a) & (t.index <= b)].mean() / 1e6 for a, b in [(1, 5), (5.5, 10), (11, 15)]]
    print(f"{name} Mb/s  before {means[0]:.2f}  tcp2 paused {means[1]:.2f}  after {means[2]:.2f}")
print("accounting balanced:", res.balanced)

# The same flows steered: from 3 s on, tcp2 paused at once when tcp1's window is above 15
# packets, resumed 2 s later; the CBR stopped at 8 s for good.
sc = nsim.Scenario.load(SCENARIO)
sc.config.pop("event")
sim = nsim.Simulation(sc)
sim.stop_flow("cbr", at="8s")
sim.run(until="3s")
while sim.now < 13 and sim.flows().set_index("name").loc["tcp1", "cwnd"] <= 15:
    sim.run(until=sim.now + 0.1)
print(f"at {sim.now:.1f} s tcp1's cwnd is above 15: pausing tcp2")
sim.pause_flow("tcp2")
sim.resume_flow("tcp2", at=sim.now + 2)
sim.run()
steered = sim.results()
print(steered.event_log.to_string(index=False))
print(steered.flows[["name", "delivered_pkts", "stop_s"]].to_string(index=False))
