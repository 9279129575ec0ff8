//! Traffic generators: when the next packet leaves and how big it is.
//!
//! A generator is a pure function of its random stream, so it can be tested without a network
//! (and a source agent turns its output into packets). ns-2 names: `Application/Traffic/CBR`,
//! `Application/Traffic/Exponential`, `Application/Traffic/Pareto`; Poisson is CBR with
//! exponential gaps (ns-2 users build it with `random_` or a Poisson generator).

pub mod cbr;
pub mod http;
pub mod onoff;
pub mod poisson;
pub mod repeat;
pub mod size;
pub mod stream;
pub mod telnet;
pub mod video;
pub mod video_synthetic;
pub mod video_trace;
pub mod web_client;
pub mod web_page;

use crate::rng::SimRng;
use crate::time::Dur;

/// Send a packet of `size` bytes now, then wait `gap` before asking again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emission {
    pub size: u32,
    pub gap: Dur,
}

pub trait Generator {
    fn next(&mut self, rng: &mut SimRng) -> Emission;
    /// The priority of the packet of the last emission, when the generator sets one (a video
    /// layer); None: the flow's `prio`.
    fn prio(&self) -> Option<u8> {
        None
    }
    /// Where the packet of the last emission sits in a video stream (video sources only),
    /// for `record.video_packets`.
    fn video_tag(&self) -> Option<crate::record::video_packets::VideoTag> {
        None
    }
}
