//! Peels the trees hanging off a network and lays them out for O(1) forwarding.
//!
//! A node hangs from its parent when, among the nodes not yet peeled, its only neighbour is
//! the parent and it has exactly one link to it and one link from it. Peeling such nodes
//! repeatedly (leaves first) removes every tree-shaped part; what is left is the core. Each
//! core node roots the trees hanging from it. The trees are numbered in preorder (a subtree is
//! an interval), and each node keeps its heavy child (largest subtree) and the light edges on
//! its path from the root (heavy-path decomposition, Sleator & Tarjan 1983): at most log2(n)
//! per node.

use std::collections::VecDeque;

use super::{DstKey, NodeRoute};
use crate::ids::{LinkId, NodeId};

/// Per-node link lists in one flat vector (compressed sparse rows).
pub(super) struct Adjacency {
    start: Vec<u32>,
    links: Vec<u32>,
}

impl Adjacency {
    /// Links grouped by `key(link)`, in link-id order within a node.
    fn new(n: usize, count: usize, key: impl Fn(usize) -> usize) -> Self {
        let mut start = vec![0u32; n + 1];
        for l in 0..count {
            start[key(l) + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut links = vec![0u32; count];
        for l in 0..count {
            let k = key(l);
            links[fill[k] as usize] = l as u32;
            fill[k] += 1;
        }
        Adjacency { start, links }
    }

    pub fn of(&self, v: usize) -> &[u32] {
        &self.links[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// The network split into a core and the trees hanging from it.
pub(super) struct Forest {
    pub routes: Vec<NodeRoute>,
    pub keys: Vec<DstKey>,
    pub light: Vec<LinkId>,
    /// The node each node hangs from; `u32::MAX` for core nodes.
    pub parent: Vec<u32>,
    /// Nodes in preorder: every parent comes before its children.
    pub order: Vec<u32>,
    pub out: Adjacency,
    pub inc: Adjacency,
}

impl Forest {
    pub fn new(n: usize, links: &[(NodeId, NodeId, u64)]) -> Self {
        let out = Adjacency::new(n, links.len(), |l| links[l].0.idx());
        let inc = Adjacency::new(n, links.len(), |l| links[l].1.idx());
        let (parent, up, down) = peel(n, links, &out, &inc);
        let mut f = Forest {
            routes: vec![NodeRoute::default(); n],
            keys: vec![DstKey::default(); n],
            light: Vec::new(),
            parent,
            order: Vec::with_capacity(n),
            out,
            inc,
        };
        f.layout(&up, &down);
        f
    }

    /// Preorder numbering, subtree intervals, heavy children and light-edge lists.
    fn layout(&mut self, up: &[LinkId], down: &[LinkId]) {
        let n = self.parent.len();
        // Children grouped by parent, in id order; core nodes go to the extra group `n`.
        let children = Adjacency::new(n + 1, n, |v| {
            if self.parent[v] == u32::MAX {
                n
            } else {
                self.parent[v] as usize
            }
        });
        let mut stack: Vec<u32> = Vec::new();
        for root in 0..n {
            if self.parent[root] != u32::MAX {
                continue;
            }
            stack.push(root as u32);
            while let Some(v) = stack.pop() {
                self.routes[v as usize].pre = self.order.len() as u32;
                self.order.push(v);
                // Reverse, so children are visited in id order.
                let first = stack.len();
                stack.extend_from_slice(children.of(v as usize));
                stack[first..].reverse();
            }
        }
        // Subtree sizes, children before parents.
        let mut size = vec![1u32; n];
        for &v in self.order.iter().rev() {
            let p = self.parent[v as usize];
            if p != u32::MAX {
                size[p as usize] += size[v as usize];
            }
        }
        for &v in &self.order {
            let v = v as usize;
            let heavy = children.of(v).iter().fold(None, |best: Option<u32>, &c| match best {
                Some(b) if size[b as usize] >= size[c as usize] => Some(b),
                _ => Some(c),
            });
            let heavy_pre = heavy.map_or(0, |h| self.routes[h as usize].pre);
            let r = &mut self.routes[v];
            r.end = r.pre + size[v];
            r.up = up[v];
            r.heavy_down = LinkId::NONE;
            if let Some(h) = heavy {
                r.heavy_down = down[h as usize];
                r.heavy_pre = heavy_pre;
                r.heavy_end = heavy_pre + size[h as usize];
            }
            // The path from the root: the parent's light edges, plus this edge if it is light.
            let off = self.light.len() as u32;
            let p = self.parent[v];
            if p != u32::MAX {
                let pr = self.routes[p as usize];
                self.light.extend_from_within(
                    pr.light_off as usize..(pr.light_off + pr.light_depth) as usize,
                );
                let light = pr.heavy_down != down[v];
                self.keys[v] = if light {
                    self.light.push(down[v]);
                    DstKey { light_from: NodeId(p), last_light: down[v], ..self.keys[p as usize] }
                } else {
                    self.keys[p as usize]
                };
                self.routes[v].light_depth = pr.light_depth + light as u32;
            }
            self.routes[v].light_off = off;
            self.keys[v].pre = self.routes[v].pre;
        }
    }
}

/// Peels hanging nodes, leaves first. Returns each node's parent (`u32::MAX` for the core) and
/// its links up to and down from the parent.
fn peel(
    n: usize,
    links: &[(NodeId, NodeId, u64)],
    out: &Adjacency,
    inc: &Adjacency,
) -> (Vec<u32>, Vec<LinkId>, Vec<LinkId>) {
    let mut parent = vec![u32::MAX; n];
    let mut up = vec![LinkId::NONE; n];
    let mut down = vec![LinkId::NONE; n];
    let mut peeled = vec![false; n];
    let mut n_out: Vec<u32> = (0..n).map(|v| out.of(v).len() as u32).collect();
    let mut n_in: Vec<u32> = (0..n).map(|v| inc.of(v).len() as u32).collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&v| n_out[v] == 1 && n_in[v] == 1).collect();
    while let Some(x) = queue.pop_front() {
        if peeled[x] || n_out[x] != 1 || n_in[x] != 1 {
            continue;
        }
        let lo = *out
            .of(x)
            .iter()
            .find(|&&l| !peeled[links[l as usize].1.idx()])
            .expect("one link out left");
        let li = *inc
            .of(x)
            .iter()
            .find(|&&l| !peeled[links[l as usize].0.idx()])
            .expect("one link in left");
        let p = links[lo as usize].1.idx();
        if p != links[li as usize].0.idx() || p == x {
            continue;
        }
        peeled[x] = true;
        parent[x] = p as u32;
        up[x] = LinkId(lo);
        down[x] = LinkId(li);
        n_out[p] -= 1;
        n_in[p] -= 1;
        if n_out[p] == 1 && n_in[p] == 1 {
            queue.push_back(p);
        }
    }
    (parent, up, down)
}
