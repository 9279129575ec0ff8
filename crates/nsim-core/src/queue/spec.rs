//! The registry of queue disciplines: one line per discipline.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{BuildCtx, QueueConfig, QueueDisc};

macro_rules! registry {
    ($($(#[$m:meta])* $variant:ident = $name:literal => $cfg:ty),* $(,)?) => {
        /// A queue discipline and its parameters, chosen by `kind`.
        #[derive(Clone, Debug, Deserialize, JsonSchema)]
        #[serde(tag = "kind")]
        pub enum QueueSpec {
            $($(#[$m])* #[serde(rename = $name)] $variant($cfg),)*
        }

        impl QueueSpec {
            fn inner(&self) -> &dyn QueueConfig {
                match self { $(QueueSpec::$variant(c) => c,)* }
            }
        }
    };
}

registry! {
    /// FIFO with tail drop (ns-2 Queue/DropTail).
    DropTail = "droptail" => crate::queue::droptail::DropTailConfig,
    /// DropTail that marks ECN CE above a threshold K (RFC 8257 §3.1, for DCTCP).
    StepMark = "step_mark" => crate::queue::step_mark::StepMarkConfig,
    /// Random Early Detection, gentle, ECN, Adaptive (ns-2 Queue/RED).
    Red = "red" => crate::queue::red::RedConfig,
    /// Strict priority over child queues.
    Prio = "prio" => crate::queue::prio::PrioConfig,
    /// Weighted round robin over child queues, weights in packets or bytes.
    Wrr = "wrr" => crate::queue::round_robin::WrrConfig,
    /// Deficit round robin over child queues (Shreedhar & Varghese 1995).
    Drr = "drr" => crate::queue::round_robin::DrrConfig,
    /// ns-2's Queue/DRR: source addresses hashed into buckets sharing one byte buffer.
    DrrNs2 = "drr_ns2" => crate::queue::drr_ns2::DrrNs2Config,
    /// One queue with three drop priorities (AF / RIO-style, Noureddine 2002).
    Af = "af" => crate::queue::af::AfConfig,
    /// Controlled Delay (RFC 8289).
    Codel = "codel" => crate::queue::codel::CodelConfig,
    /// Flow queueing with per-flow CoDel (RFC 8290).
    FqCodel = "fq_codel" => crate::queue::fq_codel::FqCodelConfig,
    /// Proportional Integral controller Enhanced (RFC 8033).
    Pie = "pie" => crate::queue::pie::PieConfig,
    /// Class-based queueing with link sharing (Floyd & Jacobson 1995), one level.
    Cbq = "cbq" => crate::queue::cbq::CbqConfig,
    /// Token-bucket policer (drop or demote) in front of a child queue.
    Policer = "policer" => crate::queue::token_bucket::PolicerConfig,
    /// Token-bucket shaper (non-work-conserving) in front of a child queue.
    Shaper = "shaper" => crate::queue::token_bucket::ShaperConfig,
    /// Single rate three colour marker (RFC 2697) in front of a child queue.
    Srtcm = "srtcm" => crate::queue::srtcm::SrtcmConfig,
    /// Two rate three colour marker (RFC 2698) in front of a child queue.
    Trtcm = "trtcm" => crate::queue::trtcm::TrtcmConfig,
    /// Host output scheduler/shaper, Noureddine 2002 design #3 (per-connection queues, 3 classes).
    HostSched = "host_sched" => crate::queue::host_sched::HostSchedConfig,
}

impl QueueSpec {
    pub fn validate(&self, path: &str) -> Result<(), String> {
        self.inner().validate(path)
    }
    pub fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        self.inner().build(ctx)
    }
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec::DropTail(Default::default())
    }
}
