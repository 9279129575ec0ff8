//! Fast retransmit and fast recovery in bytes, for the full TCP (ns-2 `FullTcpAgent::
//! dupack_action`, `pack_action`, `ack_action`; RFC 5681 §3.2, RFC 6582).
//!
//! Why not [`crate::tcp::recovery`]: those algorithms work on the one-way sender's
//! [`crate::tcp::sender::Conn`], whose sequence numbers count packets (segment k is
//! `packet_size` bytes, `output(seq)` sends segment number seq, SACK blocks and the
//! scoreboard are in packets). A full TCP's segments are byte ranges of varying length (a
//! Nagle-delayed short segment, a FIN, a window probe), so the packet-numbered algorithms do
//! not apply. This file keeps only the decisions (when to enter, inflate, deflate, leave);
//! the window arithmetic stays in [`crate::tcp::cc`], shared with the one-way agents.

use super::config::{FullVariant, RecoveryRules};

/// What a duplicate ACK asks of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAction {
    /// Below the threshold (or not allowed to retransmit yet): nothing.
    Nothing,
    /// The threshold: reduce the window and retransmit the first unacknowledged segment.
    FastRetransmit,
    /// Past the threshold in Reno/NewReno recovery: inflate cwnd by one segment.
    Inflate,
}

/// What a new (advancing) ACK means for recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewAck {
    /// Not in recovery: grow the window.
    Open,
    /// Recovery ends: deflate cwnd to ssthresh (RFC 5681 §3.2 step 6).
    Exit,
    /// NewReno partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole, stay.
    Partial,
}

#[derive(Clone, Debug)]
pub struct FastRecovery {
    pub variant: FullVariant,
    pub rules: RecoveryRules,
    pub dupthresh: u32,
    pub dupacks: u32,
    /// Highest sequence number sent when recovery began (RFC 6582 `recover`).
    pub recover: u64,
    /// In fast recovery (ns-2 `fastrecov_`).
    pub active: bool,
    /// The last window reduction was a fast retransmit, not a timeout.
    after_fast_retransmit: bool,
    /// A NewReno partial ACK was answered under ns-2 rules: until the next ACK that is not
    /// partial, each event sends at most `recov_maxburst` segments (ns-2 `save_maxburst_ >= 0`).
    pub burst_limited: bool,
}

impl FastRecovery {
    pub fn new(variant: FullVariant, rules: RecoveryRules, dupthresh: u32) -> Self {
        FastRecovery {
            variant,
            rules,
            dupthresh,
            dupacks: 0,
            recover: 0,
            active: false,
            after_fast_retransmit: false,
            burst_limited: false,
        }
    }

    /// A duplicate ACK for `snd_una`; `snd_max` is the highest sequence number sent.
    pub fn on_dupack(&mut self, snd_una: u64, snd_max: u64) -> DupAction {
        self.dupacks += 1;
        if self.dupacks == self.dupthresh {
            // RFC 6582 §3.2 step 1 ("careful" variant, ns-2 `bug_fix_`): no fast retransmit
            // for losses in a window already being repaired after a timeout. ns-2 FullTcp
            // allows it while the last window action was a fast retransmit
            // (`last_cwnd_action_ == CWND_ACTION_DUPACK`), so Reno halves again for a second
            // loss in the same window, as the reference runs show (not Tahoe).
            // ns-2 FullTcp/Sack has no such exception.
            let ns2_again =
                self.rules == RecoveryRules::Ns2 && self.after_fast_retransmit && self.inflates();
            if snd_una <= self.recover && self.recover != 0 && !ns2_again {
                // ns-2 sets `fastrecov_` before this check: the next new ACK then leaves "fast
                // recovery" (Reno deflates an inflated cwnd to ssthresh, NewReno and SACK treat
                // an ACK below `recover` as partial). Tahoe (`reno_fastrecov_ false`) is
                // unaffected.
                if self.variant == FullVariant::Sack
                    || (self.rules == RecoveryRules::Ns2 && self.variant != FullVariant::Tahoe)
                {
                    self.active = true;
                }
                return DupAction::Nothing;
            }
            self.after_fast_retransmit = true;
            self.recover = snd_max;
            self.active = self.variant != FullVariant::Tahoe;
            return DupAction::FastRetransmit;
        }
        // ns-2 FullTcp (`reno_fastrecov_ true`) inflates on every duplicate ACK past the
        // threshold, also when the fast retransmit was not allowed (after a timeout); that
        // inflation is not undone by the next new ACK. RFC 5681: only in fast recovery.
        // SACK never inflates (ns-2 `reno_fastrecov_ false`): pipe replaces the inflation.
        let inflates = self.inflates()
            && match self.rules {
                RecoveryRules::Ns2 => true,
                RecoveryRules::Rfc => self.active,
            };
        if self.dupacks > self.dupthresh && inflates {
            return DupAction::Inflate;
        }
        DupAction::Nothing
    }

    /// RACK (RFC 8985) marked a segment lost: fast recovery starts, up to `snd_max`, unless
    /// the loss lies in data sent before the last recovery point or timeout (`on_dupack`'s
    /// guard, RFC 6582 §3.2 step 1). Returns whether it started.
    pub fn enter_on_loss(&mut self, snd_una: u64, snd_max: u64) -> bool {
        if snd_una <= self.recover && self.recover != 0 {
            return false;
        }
        self.after_fast_retransmit = true;
        self.recover = snd_max;
        self.active = true;
        true
    }

    /// Reno-style window inflation by duplicate ACKs (ns-2 `reno_fastrecov_`).
    fn inflates(&self) -> bool {
        matches!(self.variant, FullVariant::Reno | FullVariant::Newreno)
    }

    /// An ACK advanced `snd_una` to `ack`.
    pub fn on_new_ack(&mut self, ack: u64) -> NewAck {
        if !self.active {
            self.dupacks = 0;
            self.burst_limited = false;
            return NewAck::Open;
        }
        if matches!(self.variant, FullVariant::Newreno | FullVariant::Sack) && ack < self.recover {
            // ns-2 FullTcp/Newreno (and /Sack) keeps counting duplicate ACKs through partial
            // ACKs, so each later one inflates cwnd (Newreno).
            return NewAck::Partial;
        }
        self.dupacks = 0;
        self.active = false;
        self.burst_limited = false;
        NewAck::Exit
    }

    /// A NewReno partial ACK's retransmission. Under ns-2 rules it is a fast retransmit
    /// (tcp-full.cc `NewRenoFullTcpAgent::pack_action` calls `fast_retransmit`): `recover`
    /// moves to the highest sequence number sent, the last window action becomes a fast
    /// retransmit (`last_cwnd_action_ = CWND_ACTION_DUPACK`, so three more duplicate ACKs may
    /// fast-retransmit again, also for data sent before a timeout), and bursts are limited
    /// until an ACK that is not partial (`maxburst_ = recov_maxburst_`). RFC 6582 does
    /// none of this.
    pub fn partial_retransmit(&mut self, snd_max: u64) {
        if self.rules == RecoveryRules::Ns2 {
            self.recover = snd_max;
            self.after_fast_retransmit = true;
            self.burst_limited = true;
        }
    }

    /// A retransmission timeout ends any recovery; losses up to `snd_max` are repaired by
    /// the go-back-N that follows.
    pub fn on_timeout(&mut self, snd_max: u64) {
        self.dupacks = 0;
        self.active = false;
        self.recover = snd_max;
        self.after_fast_retransmit = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5681 §3.2: the third duplicate ACK retransmits, later ones inflate, a new ACK exits.
    #[test]
    fn reno_enters_on_the_third_dupack() {
        let mut r = FastRecovery::new(FullVariant::Reno, RecoveryRules::Ns2, 3);
        assert_eq!(r.on_dupack(1001, 20_001), DupAction::Nothing);
        assert_eq!(r.on_dupack(1001, 20_001), DupAction::Nothing);
        assert_eq!(r.on_dupack(1001, 20_001), DupAction::FastRetransmit);
        assert_eq!(r.on_dupack(1001, 20_001), DupAction::Inflate);
        assert_eq!(r.on_new_ack(5001), NewAck::Exit);
        // ns-2 FullTcp: a second loss in the same window is fast-retransmitted again...
        for _ in 0..2 {
            r.on_dupack(5001, 22_001);
        }
        assert_eq!(r.on_dupack(5001, 22_001), DupAction::FastRetransmit);
        // ...but after a timeout, dupacks for data sent before it do not start recovery
        // (RFC 6582 §3.2 step 1).
        r.on_timeout(30_001);
        r.on_new_ack(6001);
        for _ in 0..2 {
            r.on_dupack(6001, 30_001);
        }
        assert_eq!(r.on_dupack(6001, 30_001), DupAction::Nothing);
    }

    /// ns-2 FullTcp/Newreno (tcp-full.cc `pack_action`): after a timeout the third duplicate
    /// ACK marks fast recovery without retransmitting; the partial ACK that follows is a fast
    /// retransmit: it limits bursts until an ACK that is not partial and moves `recover`, and
    /// three duplicate ACKs at `recover` may then fast-retransmit again (`last_cwnd_action_`),
    /// which RFC 6582 §3.2 step 1 forbids. RFC rules neither limit nor move `recover`.
    #[test]
    fn newreno_partial_ack_after_timeout_is_a_fast_retransmit_under_ns2_rules() {
        for rules in [RecoveryRules::Ns2, RecoveryRules::Rfc] {
            let ns2 = rules == RecoveryRules::Ns2;
            let mut r = FastRecovery::new(FullVariant::Newreno, rules, 3);
            r.on_timeout(30_001);
            for _ in 0..3 {
                r.on_dupack(1001, 30_001);
            }
            // RFC 5681: no recovery starts for data sent before the timeout.
            assert_eq!(
                r.on_new_ack(5001),
                if ns2 { NewAck::Partial } else { NewAck::Open },
                "{rules:?}"
            );
            r.partial_retransmit(40_001);
            assert_eq!(r.burst_limited, ns2);
            assert_eq!(r.recover, if ns2 { 40_001 } else { 30_001 });
            r.on_new_ack(40_001);
            assert!(!r.burst_limited, "an ACK that is not partial lifts the limit");
        }
        let mut r = FastRecovery::new(FullVariant::Newreno, RecoveryRules::Ns2, 3);
        r.on_timeout(30_001);
        r.partial_retransmit(40_001);
        r.on_new_ack(40_001);
        for _ in 0..2 {
            r.on_dupack(40_001, 45_001);
        }
        assert_eq!(
            r.on_dupack(40_001, 45_001),
            DupAction::FastRetransmit,
            "at recover, after a partial ACK's retransmit"
        );
        let mut r = FastRecovery::new(FullVariant::Newreno, RecoveryRules::Ns2, 3);
        r.on_timeout(40_001);
        r.on_new_ack(40_001);
        for _ in 0..2 {
            r.on_dupack(40_001, 45_001);
        }
        assert_eq!(
            r.on_dupack(40_001, 45_001),
            DupAction::Nothing,
            "at recover, straight after a timeout"
        );
    }

    /// RFC 6582 §3.2 step 5: an ACK below `recover` is partial; one at or above ends recovery.
    #[test]
    fn newreno_partial_acks() {
        let mut r = FastRecovery::new(FullVariant::Newreno, RecoveryRules::Ns2, 3);
        for _ in 0..3 {
            r.on_dupack(1001, 20_001);
        }
        assert_eq!(r.on_new_ack(5001), NewAck::Partial);
        assert_eq!(r.on_new_ack(20_001), NewAck::Exit);
    }

    /// RFC rules: no second fast retransmit for the window being recovered (RFC 6582 §3.2
    /// step 1) and no inflation outside fast recovery (RFC 5681 §3.2).
    #[test]
    fn rfc_rules() {
        let mut r = FastRecovery::new(FullVariant::Reno, RecoveryRules::Rfc, 3);
        for _ in 0..3 {
            r.on_dupack(1001, 20_001);
        }
        assert_eq!(r.on_new_ack(5001), NewAck::Exit);
        for _ in 0..2 {
            r.on_dupack(5001, 22_001);
        }
        assert_eq!(r.on_dupack(5001, 22_001), DupAction::Nothing);
        assert_eq!(r.on_dupack(5001, 22_001), DupAction::Nothing, "not in recovery: no inflation");
    }

    /// A RACK loss starts recovery as a third duplicate ACK would, under the same guard (RFC
    /// 6582 §3.2 step 1): not for data sent before the recovery point or a timeout; the ACK
    /// that covers the recovery point ends it.
    #[test]
    fn a_rack_loss_enters_recovery_under_the_dupack_guard() {
        let mut r = FastRecovery::new(FullVariant::Sack, RecoveryRules::Rfc, 3);
        assert!(r.enter_on_loss(1001, 20_001));
        assert!(r.active);
        assert_eq!(r.on_new_ack(5001), NewAck::Partial);
        assert_eq!(r.on_new_ack(20_001), NewAck::Exit);
        assert!(
            !r.enter_on_loss(20_001, 30_001),
            "a loss at the old recovery point: no new recovery"
        );
        assert!(r.enter_on_loss(20_002, 30_001));
        r.on_timeout(40_001);
        r.on_new_ack(30_001);
        assert!(!r.enter_on_loss(30_001, 40_001), "data sent before the timeout");
    }
}
