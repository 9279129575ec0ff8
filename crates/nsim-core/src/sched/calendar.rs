//! A calendar queue: the event set as buckets of simulated time.
//!
//! Source: R. Brown, "Calendar queues: a fast O(1) priority queue implementation for the
//! simulation event set problem", CACM 31(10), 1988; ns-2's default scheduler
//! (`Scheduler/Calendar`, common/scheduler.cc) is one. Events due within the next
//! [`BUCKETS`] bucket widths sit in the bucket of their time, each bucket a list sorted by
//! key; a bitmap of non-empty buckets finds the next one. Events further ahead (retransmission
//! timers, long links) wait in a binary heap, and every pop takes the smaller of the two
//! heads, so the order is exactly the keys' order whatever the width: only speed depends on it.
//!
//! The bucket width adapts like Brown's resize, without a parameter: every [`ADAPT_EVERY`]
//! pops it becomes the power of two just above the mean time between popped events (about one
//! event per bucket), and the wheel is rebuilt when that moved by a factor of four or more.
//! A pop then costs a bitmap scan and a list unlink instead of a heap's log2(n) levels, and
//! touches only the few buckets around the current time (issue 15: the heap of a 10,000-pair
//! network spilled out of cache).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Buckets in the wheel (a power of two); the wheel spans `BUCKETS` widths ahead of now.
pub const BUCKETS: usize = 4096;
const MASK: usize = BUCKETS - 1;
const WORDS: usize = BUCKETS / 64;
/// End of a bucket's list (and of the free list).
const NIL: u32 = u32::MAX;
/// Pops between two re-estimations of the bucket width.
pub const ADAPT_EVERY: u32 = 4096;
/// Narrowest bucket: 2^10 ps (~1 ns).
const MIN_SHIFT: u32 = 10;
/// First bucket width, before any estimate: 2^24 ps (~17 us).
const START_SHIFT: u32 = 24;

/// A wheel entry; `next` links the bucket's list (or the free list).
#[derive(Clone, Copy)]
struct Node<T> {
    key: u128,
    next: u32,
    item: T,
}

/// An entry of the overflow heap, ordered so that the max-heap yields the smallest key.
struct Far<T> {
    key: u128,
    item: T,
}

impl<T> PartialEq for Far<T> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<T> Eq for Far<T> {}
impl<T> PartialOrd for Far<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Far<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// A min-priority queue of `(key, item)` with distinct `u128` keys whose upper 64 bits are a
/// time that never runs backwards (an item is not due before the last one popped).
pub struct Calendar<T> {
    /// First node of each bucket's list, sorted by key.
    heads: Box<[u32; BUCKETS]>,
    /// Bit b set: bucket b is not empty.
    occupied: [u64; WORDS],
    nodes: Vec<Node<T>>,
    free: u32,
    far: BinaryHeap<Far<T>>,
    /// Bucket width is 2^shift time units.
    shift: u32,
    /// Time of the last popped item; the wheel holds slots `[now >> shift, +BUCKETS)`.
    now: u64,
    len: usize,
    popped: u32,
    /// Time of the pop that started the current width estimate.
    mark: u64,
}

impl<T: Copy> Default for Calendar<T> {
    fn default() -> Self {
        Calendar {
            heads: Box::new([NIL; BUCKETS]),
            occupied: [0; WORDS],
            nodes: Vec::new(),
            free: NIL,
            far: BinaryHeap::new(),
            shift: START_SHIFT,
            now: 0,
            len: 0,
            popped: 0,
            mark: 0,
        }
    }
}

impl<T: Copy> Calendar<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn push(&mut self, key: u128, item: T) {
        self.len += 1;
        let slot = ((key >> 64) as u64) >> self.shift;
        let cursor = self.now >> self.shift;
        if slot < cursor || slot - cursor >= BUCKETS as u64 {
            self.far.push(Far { key, item });
        } else {
            self.insert(slot as usize & MASK, key, item);
        }
    }

    /// Removes and returns the smallest entry if its time is at most `limit`. Always inlined:
    /// with a second caller (ns-2 order's hold, sched.rs) the compiler stopped inlining it
    /// into the event loop, at 6 % of the loop's instructions (docs/performance.md).
    #[inline(always)]
    pub fn pop_until(&mut self, limit: u64) -> Option<(u128, T)> {
        let bucket = self.first_bucket();
        let wheel_key = bucket.map(|b| self.nodes[self.heads[b] as usize].key);
        let far_key = self.far.peek().map(|f| f.key);
        let (key, from_wheel) = match (wheel_key, far_key) {
            (Some(w), Some(f)) => (w.min(f), w < f),
            (Some(w), None) => (w, true),
            (None, Some(f)) => (f, false),
            (None, None) => return None,
        };
        let time = (key >> 64) as u64;
        if time > limit {
            return None;
        }
        let item = match bucket.filter(|_| from_wheel) {
            Some(b) => self.unlink_head(b),
            None => self.far.pop().map(|f| f.item)?,
        };
        self.len -= 1;
        self.now = time;
        self.popped += 1;
        if self.popped == ADAPT_EVERY {
            self.adapt();
        }
        Some((key, item))
    }

    /// Inserts into bucket `b`'s list at its place by key.
    fn insert(&mut self, b: usize, key: u128, item: T) {
        let node = Node { key, next: NIL, item };
        let n = if self.free != NIL {
            let n = self.free;
            self.free = self.nodes[n as usize].next;
            self.nodes[n as usize] = node;
            n
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        };
        let mut prev = NIL;
        let mut cur = self.heads[b];
        while cur != NIL && self.nodes[cur as usize].key < key {
            prev = cur;
            cur = self.nodes[cur as usize].next;
        }
        self.nodes[n as usize].next = cur;
        if prev == NIL {
            self.heads[b] = n;
            self.occupied[b / 64] |= 1 << (b % 64);
        } else {
            self.nodes[prev as usize].next = n;
        }
    }

    fn unlink_head(&mut self, b: usize) -> T {
        let n = self.heads[b];
        let node = self.nodes[n as usize];
        self.heads[b] = node.next;
        if node.next == NIL {
            self.occupied[b / 64] &= !(1 << (b % 64));
        }
        self.nodes[n as usize].next = self.free;
        self.free = n;
        node.item
    }

    /// The first non-empty bucket in time order, starting at the current slot.
    fn first_bucket(&self) -> Option<usize> {
        let start = (self.now >> self.shift) as usize & MASK;
        let (w0, bit) = (start / 64, start % 64);
        let here = self.occupied[w0] & (!0u64 << bit);
        if here != 0 {
            return Some(w0 * 64 + here.trailing_zeros() as usize);
        }
        for i in 1..WORDS {
            let w = (w0 + i) % WORDS;
            if self.occupied[w] != 0 {
                return Some(w * 64 + self.occupied[w].trailing_zeros() as usize);
            }
        }
        // The slots that wrapped round: the far end of the wheel, in the start word.
        let wrapped = self.occupied[w0] & !(!0u64 << bit);
        (wrapped != 0).then(|| w0 * 64 + wrapped.trailing_zeros() as usize)
    }

    /// Re-estimates the bucket width from the mean gap between the last pops and rebuilds the
    /// wheel if it changed by a factor of four or more.
    fn adapt(&mut self) {
        // An item pushed into the past (not done by the simulator) may have moved `now` back.
        let gap = self.now.saturating_sub(self.mark) / ADAPT_EVERY as u64;
        self.mark = self.now;
        self.popped = 0;
        let want = (u64::BITS - gap.leading_zeros()).max(MIN_SHIFT);
        if want.abs_diff(self.shift) < 2 {
            return;
        }
        let mut entries = Vec::with_capacity(self.len - self.far.len());
        for b in 0..BUCKETS {
            let mut n = self.heads[b];
            while n != NIL {
                let node = self.nodes[n as usize];
                entries.push((node.key, node.item));
                n = node.next;
            }
        }
        self.heads.fill(NIL);
        self.occupied = [0; WORDS];
        self.nodes.clear();
        self.free = NIL;
        self.shift = want;
        self.len -= entries.len();
        for (key, item) in entries {
            self.push(key, item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;

    /// A small deterministic generator (SplitMix64) for the workloads below.
    struct Mix(u64);
    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }

    /// Runs a hold-model workload (pop one, schedule 0-2 later ones) on the calendar and on
    /// std's `BinaryHeap` of the same keys, and checks that they pop the same sequence.
    /// `delay(r, step)` draws how far ahead a new event is.
    fn same_order_as_binary_heap(seed: u64, steps: usize, delay: impl Fn(&mut Mix, usize) -> u64) {
        let mut cal = Calendar::<u32>::default();
        let mut reference = BinaryHeap::new();
        let mut r = Mix(seed);
        let mut seq = 0u64;
        let mut now = 0u64;
        let mut push =
            |cal: &mut Calendar<u32>, reference: &mut BinaryHeap<Reverse<(u128, u32)>>, at: u64| {
                seq += 1;
                let key = ((at as u128) << 64) | seq as u128;
                cal.push(key, seq as u32);
                reference.push(Reverse((key, seq as u32)));
            };
        for _ in 0..64 {
            let d = delay(&mut r, 0);
            push(&mut cal, &mut reference, d);
        }
        for step in 0..steps {
            // Now and then a limit that stops short of the next event.
            if step % 97 == 0 {
                let next = (reference.peek().unwrap().0 .0 >> 64) as u64;
                if next > now {
                    assert!(cal.pop_until(next - 1).is_none());
                }
            }
            let got = cal.pop_until(u64::MAX);
            let want = reference.pop().map(|Reverse(e)| e);
            assert_eq!(got, want, "step {step}");
            let Some((key, _)) = got else { break };
            now = (key >> 64) as u64;
            for _ in 0..r.next() % 3 {
                let d = delay(&mut r, step);
                push(&mut cal, &mut reference, now + d);
            }
            if reference.is_empty() {
                let d = delay(&mut r, step);
                push(&mut cal, &mut reference, now + d);
            }
            assert_eq!(cal.len(), reference.len());
        }
    }

    #[test]
    fn pops_in_key_order_like_a_binary_heap() {
        // Mostly near events with many ties, a few far ones (timers) beyond the wheel.
        same_order_as_binary_heap(1, 50_000, |r, _| match r.next() % 10 {
            0 => 0,
            1 => r.next() % (1 << 40),
            _ => (r.next() % 64) << 20,
        });
    }

    #[test]
    fn stays_in_order_while_the_event_density_changes() {
        // Gaps shrink a thousandfold half way, then grow again: the width adapts both ways.
        same_order_as_binary_heap(2, 60_000, |r, step| {
            let scale = if (20_000..40_000).contains(&step) { 10 } else { 30 };
            r.next() % (1 << scale)
        });
    }

    #[test]
    fn an_item_due_before_the_last_pop_comes_out_first() {
        let mut cal = Calendar::<u8>::default();
        cal.push(100 << 64, 1);
        assert_eq!(cal.pop_until(u64::MAX), Some((100 << 64, 1)));
        cal.push((200 << 64) | 3, 3);
        cal.push((50 << 64) | 2, 2);
        assert_eq!(cal.pop_until(u64::MAX).map(|e| e.1), Some(2));
        assert_eq!(cal.pop_until(u64::MAX).map(|e| e.1), Some(3));
        assert!(cal.is_empty());
    }
}
