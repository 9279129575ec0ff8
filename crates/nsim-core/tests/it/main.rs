//! nsim-core's integration tests, built as ONE test binary (one link of the simulator instead of
//! one per file, which made the test build several times slower). Each module is one concern;
//! a new test file is `tests/it/<name>.rs` plus a `mod <name>;` line below (docs/testing.md).
//! Run one module with `cargo test -p nsim-core --test it <name>::`.

mod common;

mod atm_ubr;
mod droptail_crossing_ns2;
mod dynamics;
mod dynamics_ns2;
mod end_to_end;
mod ethernet_bridge;
mod ethernet_pause;
mod flow_start_jitter;
mod host_sched;
mod middlebox;
mod queue_af;
mod queue_aqm;
mod queue_cbq;
mod queue_markers;
mod queue_prio;
mod queue_red;
mod queue_red_ns2;
mod queue_scenarios;
mod queue_token_bucket;
mod routing;
mod routing_ecmp;
mod stp_holl_ber;
mod stp_protocol;
mod tcp_app_limited;
mod tcp_ca_stall;
mod tcp_clock_phase;
mod tcp_cubic;
mod tcp_cubic_ns3;
mod tcp_dctcp;
mod tcp_ds_marking;
mod tcp_dynamics;
mod tcp_fall_floyd;
mod tcp_full_connection;
mod tcp_full_ns2;
mod tcp_full_stream;
mod tcp_mathis;
mod tcp_rto_ssthresh;
mod tcp_sack_recovery_bound;
mod tcp_sf_sack;
mod tcp_vegas_ns2;
mod tcp_window_rules;
mod tfrc_config;
mod tfrc_dynamics;
mod tfrc_equation;
mod tfrc_fairness;
mod video;
