//! The registry of queue disciplines: one line per discipline.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::queue::{QueueConfig, QueueDisc};

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
}

impl QueueSpec {
    pub fn validate(&self, path: &str) -> Result<(), String> {
        self.inner().validate(path)
    }
    pub fn build(&self) -> Box<dyn QueueDisc> {
        self.inner().build()
    }
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec::DropTail(Default::default())
    }
}
