//! nsim-core: a packet-level discrete-event network simulator.
//!
//! Read DESIGN.md first. The flow of a run: [`config::Scenario`] (TOML or JSON) ->
//! [`config::build::build`] -> [`sim::Simulator::run`] -> [`results::Results`]. The modules form
//! a stack in which each imports only those below it (docs/architecture.md, checked by
//! tests/test_architecture.py).
#![forbid(unsafe_code)]

pub mod agent;
pub mod app;
pub mod config;
pub mod error;
pub mod ids;
pub mod middlebox;
pub mod net;
pub mod packet;
pub mod pattern;
pub mod probe;
pub mod queue;
pub mod record;
pub mod results;
pub mod rng;
pub mod sched;
pub mod sim;
pub mod steer;
pub mod tcp;
pub mod time;
pub mod transport;
pub mod units;

#[cfg(test)]
mod whole_run_tests;

pub use config::build::{build, RunOptions};
pub use config::{ConfigError, Scenario};
pub use results::Results;
