//! HyStart++'s rules against RFC 9406 §4.2-4.3, with the expected windows worked out by hand
//! (in the comments) from a window-limited sender that ACKs every segment: round boundaries,
//! the RttThresh clamp, CSS entry on the 8th sample, CSS growth, the return to slow start on an
//! RTT drop, congestion avoidance after CSS_ROUNDS rounds, and the limit L.

use super::{HyStartPp, Phase, CSS_ROUNDS};
use crate::tcp::cc::AckSample;
use crate::time::{Dur, SimTime};

fn us(x: u64) -> Dur {
    Dur::from_micros(x)
}

/// A sender that keeps cwnd segments in flight: segments 1..=10 out, ack 0, cwnd 10.
struct Flow {
    h: HyStartPp,
    cwnd: f64,
    ssthresh: f64,
    ack: i64,
    snd_nxt: i64,
}

impl Flow {
    fn new() -> Flow {
        Flow { h: HyStartPp::default(), cwnd: 10.0, ssthresh: 1e9, ack: 0, snd_nxt: 11 }
    }

    /// One ACK for the next segment, acknowledging `acked` packets, with RTT sample `rtt`.
    fn ack(&mut self, acked: u64, rtt: Option<Dur>) {
        self.ack += acked as i64;
        let s = AckSample {
            now: SimTime::ZERO,
            acked_pkts: acked,
            acked_bytes: 1000 * acked,
            rtt,
            snd_nxt: self.snd_nxt,
            ack: self.ack,
        };
        if self.cwnd < self.ssthresh && self.h.active() {
            self.h.on_ack(&s, &mut self.cwnd, &mut self.ssthresh);
        }
        self.snd_nxt = self.snd_nxt.max(self.ack + 1 + self.cwnd.floor() as i64);
    }

    /// ACKs every segment outstanding now (one round), each with RTT `rtt`.
    fn round(&mut self, rtt: Dur) {
        let end = self.snd_nxt - 1;
        while self.ack < end {
            self.ack(1, Some(rtt));
        }
    }
}

#[test]
fn rtt_thresh_is_an_eighth_of_the_last_minimum_clamped_to_4_and_16_ms() {
    // 20 ms / 8 = 2.5 ms -> 4 ms; 80 ms / 8 = 10 ms; 200 ms / 8 = 25 ms -> 16 ms.
    assert_eq!(HyStartPp::rtt_thresh(Dur::from_millis(20)), Dur::from_millis(4));
    assert_eq!(HyStartPp::rtt_thresh(Dur::from_millis(80)), Dur::from_millis(10));
    assert_eq!(HyStartPp::rtt_thresh(Dur::from_millis(200)), Dur::from_millis(16));
}

#[test]
fn a_round_ends_when_the_ack_covers_window_end() {
    let mut f = Flow::new();
    // The first ACK starts round 1 with windowEnd = SND.NXT = 11.
    f.ack(1, Some(Dur::from_millis(100)));
    assert_eq!(f.h.window_end(), Some(11));
    // ACKs 2..=10 stay in it (samples at 50 ms lower its minimum); ACK 11 starts round 2
    // with windowEnd = SND.NXT = 31 (10 + 1 + cwnd 20) and lastRoundMinRTT = 50 ms.
    for _ in 2..=10 {
        f.ack(1, Some(Dur::from_millis(50)));
    }
    assert_eq!(f.h.window_end(), Some(11));
    f.ack(1, Some(Dur::from_millis(60)));
    assert_eq!(f.h.window_end(), Some(31));
    // Seven more at 60 ms make 8 samples; 60 >= 50 + max(4, 6.25) = 56.25 ms: CSS. Had round 1
    // not ended at ACK 11, its 50 ms minimum would hide the increase.
    for _ in 0..7 {
        f.ack(1, Some(Dur::from_millis(60)));
    }
    assert_eq!(f.h.phase(), Phase::Css { baseline: Dur::from_millis(60), rounds: 1 });
}

#[test]
fn css_starts_on_the_8th_sample_at_last_min_plus_rtt_thresh_and_not_below() {
    // Round 1 (ACKs 1..=10) at 100 ms: cwnd 10 -> 20. Round 2: 20 ACKs; RttThresh = 12.5 ms.
    let mut f = Flow::new();
    f.round(Dur::from_millis(100));
    assert_eq!(f.cwnd, 20.0);
    // 112.5 ms: ACKs 11..=17 (7 samples) keep slow start: cwnd 27.
    for _ in 0..7 {
        f.ack(1, Some(us(112_500)));
    }
    assert_eq!((f.h.phase(), f.cwnd), (Phase::SlowStart, 27.0));
    // The 8th sample (ACK 18, after its +1) enters CSS; the 12 ACKs left add 1/4 each: 31.
    f.ack(1, Some(us(112_500)));
    assert_eq!((f.h.phase(), f.cwnd), (Phase::Css { baseline: us(112_500), rounds: 1 }, 28.0));
    for _ in 0..12 {
        f.ack(1, Some(us(112_500)));
    }
    assert_eq!(f.cwnd, 31.0);
    // 0.1 ms less is below the threshold: slow start all round, 20 -> 40.
    let mut f = Flow::new();
    f.round(Dur::from_millis(100));
    f.round(us(112_400));
    assert_eq!((f.h.phase(), f.cwnd), (Phase::SlowStart, 40.0));
}

#[test]
fn css_lasts_css_rounds_rounds_then_ssthresh_is_cwnd() {
    // CSS from round 2 (cwnd 31 after it, as above). Rounds 3-6 at the baseline RTT, each of
    // cwnd segments at 1/4: 31 ACKs -> 38.75, 38 -> 48.25, 48 -> 60.25, 60 -> 75.25. Round 2
    // (partial) and 3-6 are CSS_ROUNDS = 5: the first ACK of round 7 sets ssthresh = cwnd.
    assert_eq!(CSS_ROUNDS, 5);
    let mut f = Flow::new();
    f.round(Dur::from_millis(100));
    f.round(us(112_500));
    for (round, cwnd) in [(2, 38.75), (3, 48.25), (4, 60.25), (5, 75.25)] {
        f.round(us(112_500));
        assert_eq!(
            (f.h.phase(), f.cwnd),
            (Phase::Css { baseline: us(112_500), rounds: round }, cwnd)
        );
    }
    f.ack(1, Some(us(112_500)));
    assert_eq!((f.h.phase(), f.cwnd, f.ssthresh), (Phase::Off, 75.25, 75.25));
}

#[test]
fn an_rtt_below_the_baseline_resumes_slow_start() {
    // CSS from round 2 (cwnd 31). Round 3 at 105 ms < 112.5: 7 ACKs at 1/4 and the 8th's 1/4
    // before the test (33), then 23 ACKs of slow start: 56.
    let mut f = Flow::new();
    f.round(Dur::from_millis(100));
    f.round(us(112_500));
    f.round(Dur::from_millis(105));
    assert_eq!((f.h.phase(), f.cwnd), (Phase::SlowStart, 56.0));
    // Slow start again watches the rounds: 105 -> 119 ms (>= 105 + 13.125) enters CSS anew.
    f.round(Dur::from_millis(119));
    assert!(matches!(f.h.phase(), Phase::Css { rounds: 1, .. }));
}

#[test]
fn one_ack_adds_at_most_l_packets_and_a_stop_is_final() {
    let mut f = Flow::new();
    // A stretch ACK of 20 packets: + min(20, L = 8); in CSS + 8/4.
    f.ack(20, None);
    assert_eq!(f.cwnd, 18.0);
    f.h.phase = Phase::Css { baseline: Dur::from_millis(100), rounds: 1 };
    f.ack(20, None);
    assert_eq!(f.cwnd, 20.0);
    // A sample-less ACK counts nothing; a loss stops HyStart++ for good.
    f.h.stop();
    assert!(!f.h.active());
}
