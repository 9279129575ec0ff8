//! Test helpers for anything built on a bare [`Net`]: running its link events without a
//! simulator (the agents' timers go to a closure).

use super::Net;
use crate::packet::Packet;
use crate::sched::Event;
use crate::time::SimTime;

/// Runs the network's events up to `t`, handing agent timers to `timers`; returns each
/// packet delivered (freed) with its arrival time.
pub fn run_links(
    net: &mut Net,
    t: SimTime,
    mut timers: impl FnMut(&mut Net, u16, u32),
) -> Vec<(SimTime, Packet)> {
    let mut out = Vec::new();
    while let Some((at, ev)) = net.sched.pop_until(t) {
        net.now = at;
        match ev {
            Event::TxDone(l) => net.on_tx_done(l),
            Event::QueueWake(l) => net.on_queue_wake(l),
            Event::EthControl(l) => net.on_eth_control(l),
            Event::Arrive(l) => {
                if let Some(id) = net.on_arrive(l) {
                    out.push((at, *net.pool.get(id)));
                    net.pool.free(id);
                }
            }
            Event::Timer { kind, gen, .. } => timers(net, kind, gen),
            Event::Release { node, id } => net.on_release(node, id),
            Event::Sample
            | Event::Snapshot(_)
            | Event::Change(_)
            | Event::Reroute
            | Event::Flow(_) => {}
        }
    }
    net.now = t;
    out
}
