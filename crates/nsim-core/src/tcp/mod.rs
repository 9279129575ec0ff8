//! TCP: one sender core with pluggable congestion control ([`cc`]) and loss recovery
//! ([`recovery`]), and the receivers ([`sink`]). See `docs/models/tcp.md`.
//!
//! Read first: RFC 5681 (congestion control), RFC 6298 (RTO), RFC 6582 (NewReno), RFC 2018
//! (SACK), RFC 3042 (limited transmit), RFC 3168 (ECN); Fall & Floyd, "Simulation-based
//! Comparisons of Tahoe, Reno, and SACK TCP", CCR 26(3) 1996; and ns-2.35's `tcp/tcp.cc`,
//! `tcp-reno.cc`, `tcp-newreno.cc`, `tcp-sack1.cc`, `tcp-fack.cc`, `tcp-sink.cc`, whose
//! packet-level behaviour nsim reproduces.
//!
//! Like ns-2's one-way TCP, the sequence space counts packets, not bytes: segment k carries
//! `packet_size` payload bytes (the last segment of a finite transfer may carry fewer) plus
//! `header_size` header bytes, and an ACK carries the highest in-order sequence number
//! received (ns-2 convention; RFC 793's ACK would be that + 1).
//!
//! | variant | congestion control | recovery | ns-2 class |
//! |---------|--------------------|----------|------------|
//! | tahoe   | [`cc::tahoe`]      | [`recovery::tahoe`]   | `Agent/TCP` |
//! | vanilla | [`cc::tahoe`]      | [`recovery::tahoe`] without fast retransmit | `Agent/TCP`, `noFastRetrans_ true` |
//! | reno    | [`cc::reno`]       | [`recovery::reno`]    | `Agent/TCP/Reno` |
//! | newreno | [`cc::reno`]       | [`recovery::newreno`] | `Agent/TCP/Newreno` |
//! | sack1   | [`cc::reno`]       | [`recovery::sack1`]   | `Agent/TCP/Sack1` |
//! | fack    | [`cc::reno`]       | [`recovery::fack`]    | `Agent/TCP/Fack` |
//! | vegas   | [`cc::vegas`]      | [`recovery::vegas`] (`fine_retransmit = false`: [`recovery::reno`]) | `Agent/TCP/Vegas` |
//! | highspeed | [`cc::highspeed`] | [`recovery::sack1`]  | `Agent/TCP/Sack1`, `windowOption_ 8` |
//! | gaimd   | [`cc::gaimd`]      | [`recovery::sack1`]   | `Agent/TCP/Sack1`, `increase_num_`, `decrease_num_` |
//! | binomial | [`cc::binomial`]  | [`recovery::sack1`]   | `Agent/TCP/Sack1`, `windowOption_ 6` |
//! | sf_sack | [`cc::sf_sack`]    | [`recovery::sack1`]   | Bakthavachalu 2004's ns-2.1b8 Sack1 patch |
//! | cubic   | [`cc::cubic`]      | [`recovery::sack1`]   | none (RFC 9438; ns-3 `TcpCubic`, Linux `tcp_cubic.c`) |
//! | dctcp   | [`cc::dctcp`]      | [`recovery::sack1`]   | none (RFC 8257; ns-3 `TcpDctcp`, Linux `tcp_dctcp.c`) |

pub mod build;
pub mod cc;
pub mod config;
pub mod full;
pub mod marking;
pub mod pacing;
pub mod profile;
pub mod recovery;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod sink;
#[cfg(test)]
pub(crate) mod testkit;

pub use crate::probe::{CongState, TcpProbe};
