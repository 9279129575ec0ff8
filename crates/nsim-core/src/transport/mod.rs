//! Transport agents. UDP here; TCP and friends get their own modules.

pub mod udp;
