//! Name patterns in scenarios: where a field lists flows by name (a class's `match.flows`, a
//! middlebox's `flows`), an entry with `*` (any run of characters) or `?` (one character)
//! stands for every name it matches ("telnet*"), through the `wildmatch` crate. Patterns are
//! resolved once, when the run is built, so the hot path still indexes by id.

use wildmatch::WildMatch;

/// One entry of a name list: an exact name, or a pattern if it has `*` or `?`.
pub enum NamePattern {
    Exact(String),
    Wild(WildMatch),
}

impl NamePattern {
    /// `text` as written in the scenario.
    pub fn new(text: &str) -> NamePattern {
        if text.contains(['*', '?']) {
            NamePattern::Wild(WildMatch::new(text))
        } else {
            NamePattern::Exact(text.to_string())
        }
    }

    /// True if `name` is the exact name, or one the pattern stands for.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            NamePattern::Exact(n) => n == name,
            NamePattern::Wild(w) => w.matches(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NamePattern;

    #[test]
    fn stars_and_question_marks_match_runs_and_single_characters() {
        let star = NamePattern::new("be*");
        assert!(star.matches("be") && star.matches("be12") && !star.matches("cbr0"));
        let one = NamePattern::new("tel?");
        assert!(one.matches("tel1") && !one.matches("tel12") && !one.matches("tel"));
        let exact = NamePattern::new("cbr0");
        assert!(exact.matches("cbr0") && !exact.matches("cbr01"));
    }
}
