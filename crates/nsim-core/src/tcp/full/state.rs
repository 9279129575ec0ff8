//! The RFC 793 connection states (§3.2, Figure 6). [`super::conn`] makes every transition;
//! this file only names the states and what each allows.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Closed,
    Listen,
    SynSent,
    SynReceived,
    Established,
    FinWait1,
    FinWait2,
    CloseWait,
    Closing,
    LastAck,
    TimeWait,
}

impl State {
    /// The connection is synchronized: ACKs and data are processed (RFC 793 §3.9, "Otherwise").
    pub fn synchronized(self) -> bool {
        !matches!(self, State::Closed | State::Listen | State::SynSent | State::SynReceived)
    }

    /// This end may still send new data (it has not sent its FIN).
    pub fn may_send(self) -> bool {
        matches!(self, State::Established | State::CloseWait)
    }

    /// This end may still receive data (the peer has not sent its FIN).
    pub fn may_receive(self) -> bool {
        matches!(self, State::SynReceived | State::Established | State::FinWait1 | State::FinWait2)
    }

    /// State after this end's FIN is acknowledged (RFC 793 Figure 6).
    pub fn fin_acked(self) -> State {
        match self {
            State::FinWait1 => State::FinWait2,
            State::Closing => State::TimeWait,
            State::LastAck => State::Closed,
            s => s,
        }
    }

    /// State after the peer's FIN arrives in order.
    pub fn fin_received(self) -> State {
        match self {
            State::SynReceived | State::Established => State::CloseWait,
            State::FinWait1 => State::Closing,
            State::FinWait2 => State::TimeWait,
            s => s,
        }
    }

    /// State after the application closes (its FIN is queued behind the data).
    pub fn app_closed(self) -> State {
        match self {
            State::Established | State::SynReceived => State::FinWait1,
            State::CloseWait => State::LastAck,
            s => s,
        }
    }

    /// Both directions are finished at this end.
    pub fn done(self) -> bool {
        matches!(self, State::Closed | State::TimeWait)
    }
}

#[cfg(test)]
mod tests {
    use super::State::*;

    /// RFC 793 Figure 6: active close (FIN-WAIT-1 -> FIN-WAIT-2 -> TIME-WAIT), passive close
    /// (CLOSE-WAIT -> LAST-ACK -> CLOSED) and simultaneous close (CLOSING).
    #[test]
    fn rfc793_close_paths() {
        let active = Established.app_closed().fin_acked().fin_received();
        assert_eq!(active, TimeWait);
        let passive = Established.fin_received().app_closed().fin_acked();
        assert_eq!(passive, Closed);
        let simultaneous = Established.app_closed().fin_received().fin_acked();
        assert_eq!(simultaneous, TimeWait);
        assert_eq!(Established.app_closed().fin_received(), Closing);
    }
}
