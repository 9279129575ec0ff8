//! Defaults profiles: one key (`profile = "linux"` on a flow's tcp or tcp_full table) that
//! changes the defaults of the settings where ns-2.35 and a Linux host differ, so that a run
//! compared with a Linux testbed or ns-3 needs one line. Keys the table sets explicitly win
//! over the profile. "ns2" (the default) is ns-2.35's `tcl/lib/ns-default.tcl`.
//!
//! "linux" (Linux 5.x/6.x defaults, `include/net/tcp.h` and RFCs they follow):
//! - initial window 10 segments (RFC 6928; Linux `TCP_INIT_CWND`);
//! - minimum RTO 200 ms (Linux `TCP_RTO_MIN`; as ns-2.35's `minrto_`);
//! - initial RTO 1 s (RFC 6298 (2.1); Linux `TCP_TIMEOUT_INIT`);
//! - delayed ACKs, every second full segment or after 40 ms (RFC 5681 §4.2; Linux
//!   `TCP_DELACK_MIN`, the delayed-ACK timeout a connection starts from); tcp_full's timer is
//!   armed per connection (`delack_clock = "timer"`) as Linux's `icsk_delack_timer`;
//! - SACK receiver on (RFC 2018; Linux `net.ipv4.tcp_sack = 1`; one-way TCP only, a tcp_full
//!   connection chooses SACK by its `variant`);
//! - Appropriate Byte Counting with L = 2 (RFC 3465 §2.2; one-way TCP of the Reno family, CUBIC
//!   and DCTCP, the variants whose growth counts packets acknowledged).
//!
//! Not modelled: Linux's quick-ACK mode (an ACK for every segment at the start of a connection
//! and after idle, `tcp_enter_quickack_mode`), its adaptive delayed-ACK timeout (`icsk_ack.ato`
//! growing from 40 ms towards 200 ms) and its RTO floor on the variance (RTO ≥ SRTT + 200 ms,
//! `tcp_set_rto`), where nsim clamps RTO = SRTT + 4·RTTVAR to ≥ 200 ms (RFC 6298 (2.4)). Linux's
//! slow start adds every packet an ACK acknowledges (no L limit since 3.9); L = 2 is RFC
//! 3465's. Linux's default congestion control is CUBIC: set `variant = "cubic"` as well.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::time::Dur;

/// Which implementation's defaults a TCP flow starts from (`profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// ns-2.35's defaults (nsim's reference for the classic variants).
    #[default]
    Ns2,
    /// A Linux host's defaults: see the module doc.
    Linux,
}

/// The settings a profile gives unless the flow's table sets them.
#[derive(Clone, Copy, Debug)]
pub struct ProfileDefaults {
    /// Packets.
    pub initial_window: u32,
    pub min_rto: Dur,
    pub initial_rto: Dur,
    pub delayed_ack: bool,
    pub delack_interval: Dur,
    /// tcp_full's delayed-ACK timer is armed per connection (`delack_clock = "timer"`), not a
    /// periodic tick.
    pub delack_timer: bool,
    /// Some: a SACK receiver on or off for every variant; None: as the variant needs.
    pub sack: Option<bool>,
    /// RFC 3465 limit L in packets, 0 = ACK counting.
    pub abc: u32,
}

impl Profile {
    pub fn defaults(self) -> ProfileDefaults {
        match self {
            Profile::Ns2 => ProfileDefaults {
                initial_window: 2,
                min_rto: Dur::from_millis(200),
                initial_rto: Dur::from_millis(3000),
                delayed_ack: false,
                delack_interval: Dur::from_millis(100),
                delack_timer: false,
                sack: None,
                abc: 0,
            },
            Profile::Linux => ProfileDefaults {
                initial_window: 10,
                min_rto: Dur::from_millis(200),
                initial_rto: Dur::from_millis(1000),
                delayed_ack: true,
                delack_interval: Dur::from_millis(40),
                delack_timer: true,
                sack: Some(true),
                abc: 2,
            },
        }
    }
}

/// A flow's resolved values of the settings a profile governs, for `summary.json`'s
/// `tcp_profiles` (written for flows that name a profile, so users see what it set).
#[derive(Clone, Debug, Serialize)]
pub struct ProfileSettings {
    pub profile: Profile,
    pub initial_window: u32,
    pub min_rto_s: f64,
    pub initial_rto_s: f64,
    pub delayed_ack: bool,
    pub delack_interval_s: f64,
    pub sack: bool,
    /// RFC 3465 L in packets; 0 = off.
    pub abc: u32,
}

impl ProfileSettings {
    /// From resolved values: `rtos` = (minimum, initial), `delack` = (on, timeout).
    pub fn new(
        profile: Profile,
        initial_window: u32,
        rtos: (Dur, Dur),
        delack: (bool, Dur),
        sack: bool,
        abc: u32,
    ) -> Self {
        ProfileSettings {
            profile,
            initial_window,
            min_rto_s: rtos.0.as_secs_f64(),
            initial_rto_s: rtos.1.as_secs_f64(),
            delayed_ack: delack.0,
            delack_interval_s: delack.1.as_secs_f64(),
            sack,
            abc,
        }
    }
}
