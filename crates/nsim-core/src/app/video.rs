//! Video source: frames from traces or synthetic sequences, packetised, with a layer tag per
//! packet Noureddine 2002 (§2.6, Fig. 5.2; §6 item 11).
//!
//! Sequences are played in the configured order, over and over; after each sequence the source
//! is silent for an exponentially distributed gap (mean `gap`, 1 s in the seed; 0 for none).
//! Each frame is cut into packets layer by layer (base, middle, enhancement): a layer of b
//! bytes gives ceil(b / packet_size) packets, all of `packet_size` bytes but the last, which
//! carries the rest; packets never mix layers, so each carries its layer's drop priority
//! (`layer_prios`, default base = 0 HIGH, middle = 1 MED, enhancement = 2 LOW, the `af`
//! precedences). Packets of unlayered sequences carry the flow's `prio`. Pacing: `spread`
//! sends packet k of a frame's n at start + k·len/n (len: the frame's interval), `burst`
//! sends all of them back to back at the frame's start. Empty frames send nothing.
//! The seed leaves packetisation, frame rate and pacing open (§7): defaults are 1000-byte
//! packets (the seed's inferred MSS), 30 frames/s and `spread`.

use rand_distr::{Distribution, Exp};

use super::video_synthetic::Synthetic;
use super::video_trace::Trace;
use super::{Emission, Generator};
use crate::record::video_packets::VideoTag;
use crate::rng::SimRng;
use crate::time::Dur;

/// Where a sequence's frames come from.
#[derive(Clone, Debug)]
pub enum Sequence {
    Trace(Trace),
    Synthetic { model: Synthetic, layered: bool },
}

impl Sequence {
    fn frames(&self) -> usize {
        match self {
            Sequence::Trace(t) => t.frames.len(),
            Sequence::Synthetic { model, .. } => model.frames,
        }
    }
    fn layered(&self) -> bool {
        match self {
            Sequence::Trace(t) => t.layered,
            Sequence::Synthetic { layered, .. } => *layered,
        }
    }
    /// Frame `i`'s bytes per layer and its length (start to the next frame's start).
    fn frame(&self, i: usize, rng: &mut SimRng) -> ([u32; 3], Dur) {
        match self {
            Sequence::Trace(t) => (t.frames[i].layers, t.frame_len(i)),
            Sequence::Synthetic { model, .. } => (model.draw(rng), model.interval),
        }
    }
}

/// How the packets of one frame are spaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pacing {
    /// Evenly over the frame interval.
    Spread,
    /// Back to back at the frame's start.
    Burst,
}

/// The frame being sent: packets per layer, packet index, and frame length.
#[derive(Clone, Copy, Debug, Default)]
struct Current {
    layers: [u32; 3],
    counts: [u32; 3],
    n: u32,
    k: u32,
    len: Dur,
}

pub struct Video {
    sequences: Vec<Sequence>,
    packet_size: u32,
    pacing: Pacing,
    gap: Option<Exp<f64>>,
    layer_prios: [u8; 3],
    seq: usize,
    frame: usize,
    cur: Option<Current>,
    prio: Option<u8>,
    /// Sequences finished so far (the stream position of the current one).
    plays: u32,
    /// The tag of the last emission.
    tag: VideoTag,
}

impl Video {
    /// `gap_mean_s` = 0: sequences follow each other without a gap. `sequences` not empty.
    pub fn new(
        sequences: Vec<Sequence>,
        packet_size: u32,
        pacing: Pacing,
        gap_mean_s: f64,
        layer_prios: [u8; 3],
    ) -> Video {
        assert!(!sequences.is_empty() && packet_size > 0);
        let gap = (gap_mean_s > 0.0).then(|| Exp::new(1.0 / gap_mean_s).expect("positive mean"));
        Video {
            sequences,
            packet_size,
            pacing,
            gap,
            layer_prios,
            seq: 0,
            frame: 0,
            cur: None,
            prio: None,
            plays: 0,
            tag: VideoTag { sequence: 0, frame: 0, layer: 0 },
        }
    }

    /// Makes frame (`seq`, `frame`) current; returns whether it has any packet.
    fn load(&mut self, rng: &mut SimRng) -> bool {
        let (layers, len) = self.sequences[self.seq].frame(self.frame, rng);
        let counts = layers.map(|b| b.div_ceil(self.packet_size));
        let n = counts.iter().sum();
        self.cur = Some(Current { layers, counts, n, k: 0, len });
        n > 0
    }

    /// Moves to the next frame with packets; returns the time from the start of the frame
    /// left to the start of that one (frame lengths, plus a gap at each sequence end).
    fn advance(&mut self, rng: &mut SimRng) -> Dur {
        let mut elapsed = Dur::ZERO;
        loop {
            elapsed = elapsed + self.cur.expect("a current frame").len;
            self.frame += 1;
            if self.frame == self.sequences[self.seq].frames() {
                self.frame = 0;
                self.seq = (self.seq + 1) % self.sequences.len();
                self.plays += 1;
                if let Some(g) = &self.gap {
                    elapsed = elapsed + Dur::from_secs_f64(g.sample(rng));
                }
            }
            if self.load(rng) {
                return elapsed;
            }
        }
    }

    /// Offset of packet `k` from its frame's start.
    fn offset(&self, c: &Current, k: u32) -> Dur {
        match self.pacing {
            Pacing::Burst => Dur::ZERO,
            Pacing::Spread => Dur((c.len.0 as u128 * k as u128 / c.n as u128) as u64),
        }
    }
}

impl Generator for Video {
    fn next(&mut self, rng: &mut SimRng) -> Emission {
        // The first call: the stream starts at the first frame with packets.
        if self.cur.is_none() && !self.load(rng) {
            self.advance(rng);
        }
        let c = self.cur.expect("a current frame");
        // Packet k's layer: the first whose cumulative packet count exceeds k.
        let (mut layer, mut before) = (0, 0);
        while c.k >= before + c.counts[layer] {
            before += c.counts[layer];
            layer += 1;
        }
        let i = c.k - before;
        let size = if i + 1 < c.counts[layer] {
            self.packet_size
        } else {
            c.layers[layer] - i * self.packet_size
        };
        let layered = self.sequences[self.seq].layered();
        self.prio = layered.then_some(self.layer_prios[layer]);
        self.tag = VideoTag {
            sequence: self.plays,
            frame: self.frame as u32,
            layer: if layered { layer as u8 } else { 0 },
        };
        let here = self.offset(&c, c.k);
        let gap = if c.k + 1 < c.n {
            self.cur.as_mut().expect("a current frame").k += 1;
            Dur(self.offset(&c, c.k + 1).0 - here.0)
        } else {
            Dur(self.advance(rng).0 - here.0)
        };
        Emission { size, gap }
    }

    fn prio(&self) -> Option<u8> {
        self.prio
    }

    fn video_tag(&self) -> Option<VideoTag> {
        Some(self.tag)
    }
}

#[cfg(test)]
mod tests;
