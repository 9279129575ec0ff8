//! Routes a routing protocol installs node by node, as ns-2's nodes hold them: one next hop
//! per destination, or with `multiPath_` several used in turn, packet by packet.
//!
//! Source: ns-2.35 `tcl/lib/ns-node.tcl` (`Node instproc add-routes` / `delete-routes`, the
//! per-destination count `routes_`) and `classifier/classifier-mpath.cc`
//! (`MultiPathForwarder::classify`) with `classifier/classifier.cc` (`install_next`, `clear`).
//! A node without `multiPath_` keeps the one next hop (the first of several offered). With it,
//! a destination's second route turns its slot into a multipath classifier that keeps its
//! routes in slots: a new route takes the slot after the highest used one, a deleted route
//! empties its slot (the highest used slot then moves down past empty ones), and each packet
//! takes the next non-empty slot after the previous packet's, round robin. Once made, the
//! classifier stays, even with one route left, as in ns-2.
//!
//! Plain next hops live in the route table's dense array (read as before); a cell with a
//! classifier is looked up here first ([`super::RouteTable::next_hop_flow`]).

use std::cell::Cell;

use crate::ids::{LinkId, NodeId};

/// ns-2's `Classifier/MultiPath` of one (node, destination).
#[derive(Clone, Debug, Default)]
struct Slots {
    /// `LinkId::NONE` = an empty slot.
    slots: Vec<LinkId>,
    /// The highest used slot (`maxslot_`), -1 if none.
    max: i32,
    /// The slot the next packet tries first (`ns_`).
    cursor: Cell<i32>,
}

impl Slots {
    fn install_next(&mut self, l: LinkId) {
        let s = (self.max + 1) as usize;
        if s >= self.slots.len() {
            self.slots.resize(s + 1, LinkId::NONE);
        }
        self.slots[s] = l;
        self.max = s as i32;
    }

    fn clear(&mut self, s: usize) {
        self.slots[s] = LinkId::NONE;
        if s as i32 == self.max {
            self.max -= 1;
            while self.max >= 0 && self.slots[self.max as usize] == LinkId::NONE {
                self.max -= 1;
            }
        }
    }

    /// The next packet's link: the first used slot from the cursor on, round robin; `None`
    /// if every slot is empty.
    fn classify(&self) -> Option<LinkId> {
        if self.max < 0 {
            return None;
        }
        let slot = |k: i32| self.slots.get(k as usize).copied().unwrap_or(LinkId::NONE);
        let fail = self.cursor.get();
        loop {
            let cl = self.cursor.get();
            self.cursor.set((cl + 1) % (self.max + 1));
            if slot(cl) != LinkId::NONE {
                return Some(slot(cl));
            }
            if self.cursor.get() == fail {
                return None;
            }
        }
    }
}

/// Every (node, destination)'s route count and multipath classifier, if any.
#[derive(Clone, Debug)]
pub(super) struct MultiPath {
    n: usize,
    /// ns-2's `routes_($dst)` per cell `at * n + dst`.
    counts: Vec<i32>,
    classifiers: Vec<Option<Box<Slots>>>,
}

impl MultiPath {
    pub fn new(n: usize) -> Self {
        MultiPath { n, counts: vec![0; n * n], classifiers: vec![None; n * n] }
    }

    /// `Some(link or none)` if the cell has a classifier; `None`: read the plain next hop.
    #[inline]
    pub fn pick(&self, at: NodeId, dst: NodeId) -> Option<Option<LinkId>> {
        self.classifiers[at.idx() * self.n + dst.idx()].as_ref().map(|c| c.classify())
    }

    /// ns-2 `Node add-routes`: installs `links` at `at` for `dst`, whose plain next hop is
    /// `*plain` (the route table's dense cell).
    pub fn add(
        &mut self,
        at: NodeId,
        dst: NodeId,
        links: &[LinkId],
        multipath: bool,
        plain: &mut LinkId,
    ) {
        let k = at.idx() * self.n + dst.idx();
        if !multipath || (self.counts[k] <= 0 && links.len() == 1 && self.classifiers[k].is_none())
        {
            *plain = links[0];
            self.counts[k] = 1;
            return;
        }
        let c = self.classifiers[k].get_or_insert_with(|| {
            let mut c = Box::<Slots>::default();
            c.max = -1;
            if self.counts[k] > 0 {
                c.install_next(*plain);
            }
            c
        });
        for &l in links {
            c.install_next(l);
            self.counts[k] += 1;
        }
    }

    /// ns-2 `Node delete-routes`: removes `links` at `at` for `dst` (a plain next hop goes to
    /// the null agent: packets for `dst` are then dropped as unroutable).
    pub fn delete(&mut self, at: NodeId, dst: NodeId, links: &[LinkId], plain: &mut LinkId) {
        let k = at.idx() * self.n + dst.idx();
        match self.classifiers[k].as_deref_mut() {
            Some(c) => {
                for s in 0..c.slots.len() {
                    if c.slots[s] != LinkId::NONE && links.contains(&c.slots[s]) {
                        c.clear(s);
                        self.counts[k] -= 1;
                    }
                }
            }
            None => {
                *plain = LinkId::NONE;
                self.counts[k] -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2's MultiPathForwarder on two routes alternates packet by packet; after one route is
    /// deleted every packet takes the other; a route added again takes the next slot.
    #[test]
    fn round_robin_as_ns2s_classifier() {
        let (a, d) = (NodeId(0), NodeId(1));
        let mut m = MultiPath::new(2);
        let mut plain = LinkId::NONE;
        m.add(a, d, &[LinkId(4)], true, &mut plain);
        assert_eq!((plain, m.pick(a, d)), (LinkId(4), None), "one route: a plain next hop");
        m.add(a, d, &[LinkId(7)], true, &mut plain);
        let picks: Vec<_> = (0..4).map(|_| m.pick(a, d).flatten().unwrap().0).collect();
        assert_eq!(picks, [4, 7, 4, 7]);
        m.delete(a, d, &[LinkId(7)], &mut plain);
        assert_eq!(
            (0..3).map(|_| m.pick(a, d).flatten().unwrap().0).collect::<Vec<_>>(),
            [4, 4, 4]
        );
        m.add(a, d, &[LinkId(9)], true, &mut plain);
        assert_eq!((0..2).map(|_| m.pick(a, d).flatten().unwrap().0).collect::<Vec<_>>(), [4, 9]);
        m.delete(a, d, &[LinkId(9), LinkId(4)], &mut plain);
        assert_eq!(m.pick(a, d), Some(None), "every slot empty: no route");
        // Without multiPath_, the first link offered is the one next hop.
        let mut one = LinkId::NONE;
        m.add(d, a, &[LinkId(3), LinkId(5)], false, &mut one);
        assert_eq!((one, m.pick(d, a)), (LinkId(3), None));
    }
}
