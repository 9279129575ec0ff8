//! Packet hooks at nodes ("middleboxes"): code that sees every packet a node forwards and may
//! rewrite its header, hold it for a while, or drop it.
//!
//! Holl 2003 (§7.2.2) builds its IP-ABR proxy this way: a node that rewrites the
//! receive window in passing ACKs. ns-2 has no such hook (the thesis patched a proxy agent
//! into the node); here a [`Hook`] is installed at a node and [`crate::net::Net::forward`]
//! consults [`Middleboxes`] before routing. Without hooks `Net::middlebox` is `None` and a
//! forward pays one branch on that `Option` (measured in docs/models/middlebox.md).
//!
//! Held packets stay in the accounting as in flight until their `Release` event routes them
//! on (without consulting the hooks again). Drops are counted with reason `middlebox`.

pub mod change;
pub mod delay;
pub mod drop_every;
pub mod ip_abr;
pub mod rwnd_clamp;
pub mod tbf;
pub mod window_cap;

#[cfg(test)]
mod tests;

use crate::ids::NodeId;
use crate::packet::{PType, Packet};
use crate::time::{Dur, SimTime};

/// What a hook decides for one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forward it now (possibly rewritten).
    Pass,
    /// Hold it for this long, then forward it.
    Delay(Dur),
    /// Drop it (reason `middlebox`).
    Drop,
}

/// A packet hook. `p` is mutable: a hook may rewrite header fields (not `size`, `flow` or the
/// addresses, which the accounting and routing rely on).
pub trait Hook: Send {
    fn on_packet(&mut self, now: SimTime, p: &mut Packet) -> Verdict;
    /// The hook's `kind` in a `[[middlebox]]` table.
    fn kind(&self) -> &'static str;
    /// The parameters a `set` event may change (change.rs).
    fn parameters(&self) -> &'static [&'static str];
    /// Takes a new value for one of [`Hook::parameters`] at `now` (checked before: the value
    /// by [`HookChange::check`], the parameter against the list).
    fn change(&mut self, now: SimTime, c: &HookChange) -> Result<(), String>;
}

pub use change::HookChange;

/// A hook installed at a node, optionally for some flows only.
pub struct Installed {
    /// What `set` events call it by (`name` in its table, else its node's name).
    pub name: String,
    pub node: NodeId,
    /// `Some(v)`: only packets of flows `i` with `v[i]` (indexed by flow, no lookup per packet).
    pub flows: Option<Vec<bool>>,
    pub hook: Box<dyn Hook>,
}

/// Every hook of a network, grouped by node.
pub struct Middleboxes {
    /// Per node, the range of `hooks` installed there (empty for most nodes).
    by_node: Vec<(u32, u32)>,
    hooks: Vec<Installed>,
    /// Packets held by `Delay` verdicts, awaiting their release event.
    pub held: u64,
}

impl Middleboxes {
    /// Groups `hooks` by node, keeping their order within a node (the order they run in).
    pub fn new(n_nodes: usize, mut hooks: Vec<Installed>) -> Self {
        hooks.sort_by_key(|h| h.node); // stable: keeps the configured order per node
        let mut by_node = vec![(0, 0); n_nodes];
        for (i, h) in hooks.iter().enumerate() {
            let r = &mut by_node[h.node.idx()];
            if r.0 == r.1 {
                r.0 = i as u32;
            }
            r.1 = i as u32 + 1;
        }
        Middleboxes { by_node, hooks, held: 0 }
    }

    /// The hooks called `name` (positions for [`Middleboxes::hook`] and [`Middleboxes::change`]).
    pub fn named(&self, name: &str) -> Vec<u32> {
        (0..self.hooks.len() as u32).filter(|&k| self.hooks[k as usize].name == name).collect()
    }

    /// The names of all hooks, in order, once each (for an error naming what exists).
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for h in &self.hooks {
            if !out.contains(&h.name.as_str()) {
                out.push(&h.name);
            }
        }
        out
    }

    pub fn hook(&self, k: u32) -> &dyn Hook {
        self.hooks[k as usize].hook.as_ref()
    }

    /// Applies change `c` to hook `k` at `now`.
    pub fn change(&mut self, k: u32, now: SimTime, c: &HookChange) -> Result<(), String> {
        let h = &mut self.hooks[k as usize].hook;
        if !h.parameters().contains(&c.field()) {
            return Err(change::no_such_parameter(h.as_ref(), c));
        }
        c.check()?;
        h.change(now, c)
    }

    /// Runs the hooks of node `at` on `p`, in order: the first drop wins; delays add up.
    pub fn inspect(&mut self, at: NodeId, now: SimTime, p: &mut Packet) -> Verdict {
        let (lo, hi) = self.by_node[at.idx()];
        let mut hold = Dur::ZERO;
        for h in &mut self.hooks[lo as usize..hi as usize] {
            if h.flows.as_ref().is_some_and(|v| !v[p.flow.idx()]) {
                continue;
            }
            match h.hook.on_packet(now, p) {
                Verdict::Pass => {}
                Verdict::Drop => return Verdict::Drop,
                Verdict::Delay(d) => hold = hold + d,
            }
        }
        if hold == Dur::ZERO {
            Verdict::Pass
        } else {
            Verdict::Delay(hold)
        }
    }
}

/// A TCP acknowledgement whose advertised window a hook may rewrite.
pub(crate) fn is_tcp_ack(p: &Packet) -> bool {
    p.ptype == PType::Ack
}

/// Lowers the window `p` advertises to at most `bytes` (never raises it: RFC 793 §3.7 lets
/// only the receiver open its window; a middlebox may only clamp).
pub(crate) fn clamp_rwnd(p: &mut Packet, bytes: u64) {
    let bytes = bytes.min(u32::MAX as u64 - 1) as u32;
    if p.tcp.rwnd > bytes {
        p.tcp.rwnd = bytes;
    }
}
