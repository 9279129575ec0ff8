//! Repeated transfers over one TCP connection: a transfer of a drawn size, and when its last
//! byte is acknowledged a think time (possibly zero), then the next (issue 11 workloads;
//! Noureddine 2002 ch. 3 "repeated back-to-back file transfers"; FTP sessions with Pareto
//! sizes of shape 1.2 and exponential gaps as in ns-2 `Application/FTP` driven by `send n`
//! from a `done` callback).
//!
//! Pareto sizes use shape `a` and scale x_m = mean·(a−1)/a so the mean is the configured one
//! (the convention of ns-2 `app/pareto.cc`); sizes are rounded up to whole bytes, at least 1.

use super::onoff::Period;
use super::stream::{StreamApp, StreamIo};
use crate::record::flow_stats::{Transfer, TransferKind};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};

/// The size of each transfer, in bytes.
#[derive(Clone, Copy, Debug)]
pub enum TransferSize {
    Fixed(u64),
    /// Exponential or Pareto with a mean in bytes.
    Random(Period),
}

impl TransferSize {
    pub fn exponential(mean: f64) -> Self {
        TransferSize::Random(Period::exponential(mean))
    }
    pub fn pareto(mean: f64, shape: f64) -> Self {
        TransferSize::Random(Period::pareto(mean, shape))
    }
    pub fn draw(&self, rng: &mut SimRng) -> u64 {
        match self {
            TransferSize::Fixed(b) => *b,
            TransferSize::Random(d) => (d.draw(rng).ceil() as u64).max(1),
        }
    }
}

/// The think time between the end of one transfer and the start of the next.
#[derive(Clone, Copy, Debug)]
pub enum Gap {
    Fixed(Dur),
    /// Exponential with a mean in seconds.
    Random(Period),
}

impl Gap {
    pub fn exponential(mean_s: f64) -> Self {
        Gap::Random(Period::exponential(mean_s))
    }
    pub fn draw(&self, rng: &mut SimRng) -> Dur {
        match self {
            Gap::Fixed(d) => *d,
            Gap::Random(d) => Dur::from_secs_f64(d.draw(rng)),
        }
    }
}

/// A repeated-transfer application: its distributions, its own random stream and how many
/// transfers it makes (None: until the flow stops or the run ends).
pub struct Repeat {
    pub size: TransferSize,
    pub gap: Gap,
    pub count: Option<u32>,
    /// Each transfer after the first starts like a new connection (initial window, ssthresh
    /// and RTT estimator; the sequence space and the sink carry on, no new SYN).
    pub new_connection: bool,
    pub rng: SimRng,
    /// Transfers started so far.
    pub started: u32,
    /// The transfer in progress: when it started and its bytes.
    current: Option<(SimTime, u64)>,
}

impl Repeat {
    pub fn new(
        size: TransferSize,
        gap: Gap,
        count: Option<u32>,
        new_connection: bool,
        rng: SimRng,
    ) -> Self {
        Repeat { size, gap, count, new_connection, rng, started: 0, current: None }
    }

    /// The size of the next transfer, or None when `count` transfers have been made.
    pub fn next_size(&mut self) -> Option<u64> {
        if self.count.is_some_and(|c| self.started >= c) {
            return None;
        }
        self.started += 1;
        Some(self.size.draw(&mut self.rng))
    }

    pub fn next_gap(&mut self) -> Dur {
        self.gap.draw(&mut self.rng)
    }

    /// Hands the next transfer to the transport, as a new connection after the first if
    /// `new_connection` is set.
    fn start_next(&mut self, io: &mut StreamIo) {
        let fresh = self.new_connection && self.started > 0;
        let Some(b) = self.next_size() else { return };
        if fresh {
            io.new_connection();
        }
        self.current = Some((io.now(), b));
        io.write(b);
    }
}

impl StreamApp for Repeat {
    fn on_open(&mut self, io: &mut StreamIo) {
        self.start_next(io);
    }

    /// Records the transfer, then starts the next one now or after the think time.
    fn on_completed(&mut self, io: &mut StreamIo) {
        let Some((start, bytes)) = self.current.take() else { return };
        io.record(Transfer { start, end: io.now(), bytes, kind: TransferKind::File });
        match self.next_gap() {
            Dur::ZERO => self.start_next(io),
            gap => io.wake_at(io.now() + gap),
        }
    }

    fn on_wake(&mut self, io: &mut StreamIo) {
        self.start_next(io);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn count_limits_transfers() {
        let mut r = Repeat::new(
            TransferSize::Fixed(1000),
            Gap::Fixed(Dur::ZERO),
            Some(2),
            false,
            stream(1, "t"),
        );
        assert_eq!((r.next_size(), r.next_size(), r.next_size()), (Some(1000), Some(1000), None));
    }

    #[test]
    fn pareto_scale_gives_the_mean_and_sizes_are_at_least_the_scale() {
        // x_m = 200000·0.2/1.2 = 33333.3 B: no draw is below it (Pareto support [x_m, ∞)).
        let mut rng = stream(7, "t");
        let d = TransferSize::pareto(200_000.0, 1.2);
        assert!((0..1000).all(|_| d.draw(&mut rng) >= 33_334));
    }
}
