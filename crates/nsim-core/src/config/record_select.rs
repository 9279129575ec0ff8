//! "Which flows / which links" choices of `record`: `true` for all, or a list of names.

use schemars::JsonSchema;
use serde::Deserialize;

/// `false` (default: none), `true` (all), or a list of names.
#[derive(Clone, Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum Select {
    All(bool),
    Named(Vec<String>),
}

impl Default for Select {
    fn default() -> Self {
        Select::All(false)
    }
}

impl Select {
    /// True unless nothing is chosen.
    pub fn any(&self) -> bool {
        match self {
            Select::All(b) => *b,
            Select::Named(v) => !v.is_empty(),
        }
    }
}
