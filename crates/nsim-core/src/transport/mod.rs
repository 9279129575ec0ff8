//! Transport agents. UDP here; TCP and friends get their own modules.

pub mod rtproto_dv;
pub mod stp;
pub mod tfrc;
pub mod udp;
