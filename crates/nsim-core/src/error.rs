//! Configuration errors: always name the file, the field path and the reason.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The scenario's source ("scenario.toml", or "<python>" for built scenarios).
    pub file: String,
    /// Dotted field path, e.g. `links[2].rate`; empty for whole-file problems.
    pub path: String,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    pub reason: String,
}

impl ConfigError {
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        ConfigError { file: String::new(), path: path.into(), line: None, reason: reason.into() }
    }

    pub fn in_file(mut self, file: &str) -> Self {
        self.file = file.to_string();
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if !self.path.is_empty() {
            write!(f, ": field `{}`", self.path)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for ConfigError {}

/// Shorthand for results of validation and build steps.
pub type CResult<T> = Result<T, ConfigError>;
