//! The scenario document before typing: where a field path sits in the TOML text, and every
//! queue `limit` (for the budget in `limits.rs`, whatever discipline holds it).
//!
//! Errors found after parsing (an unknown node, a duplicate link) name a field path; this
//! re-locates that path in the original text so they carry a line like parse errors do.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::units::{parse_limit, Limit};

/// One step of a field path: a key or an array index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `links[2].between[1]` into Key(links), Index(2), Key(between), Index(1).
fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let key = part.split('[').next().unwrap_or("");
        if !key.is_empty() {
            out.push(Step::Key(key));
        }
        for idx in part.split('[').skip(1) {
            match idx.trim_end_matches(']').parse() {
                Ok(i) => out.push(Step::Index(i)),
                Err(_) => return out,
            }
        }
    }
    out
}

/// The 1-based line of the deepest part of `path` found in the TOML `text`.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let doc = DeTable::parse(text).ok()?;
    let mut span = None;
    let mut table: Option<&DeTable> = Some(doc.get_ref());
    let mut array: Option<&[Spanned<DeValue>]> = None;
    for step in steps(path) {
        let value = match (step, table, array) {
            (Step::Key(k), Some(t), _) => {
                t.iter().find(|(key, _)| key.get_ref() == k).map(|(_, v)| v)
            }
            (Step::Index(i), _, Some(a)) => a.get(i),
            _ => None,
        };
        let Some(value) = value else { break };
        span = Some(value.span());
        (table, array) = match value.get_ref() {
            DeValue::Table(t) => (Some(t), None),
            DeValue::Array(a) => (None, Some(&a[..])),
            _ => (None, None),
        };
    }
    span.map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
}

/// Serde loses the path inside internally tagged enums (`queue = { kind = ..., limit = ... }`,
/// `app = { kind = ..., rate = ... }`): the error names the table. When exactly one key of
/// that table holds the value the reason mentions ('25pkts', boolean `true`, a sequence),
/// returns the path with that key added; when none does, the nested tables are searched the
/// same way (`app.think.mean` holding '-1s'). `doc` is the whole document as plain data.
pub fn refine_path(doc: &serde_json::Value, path: &str, reason: &str) -> Option<String> {
    use serde_json::Value;
    let mut node = doc;
    for step in steps(path) {
        node = match (step, node) {
            (Step::Key(k), Value::Object(m)) => m.get(k)?,
            (Step::Index(i), Value::Array(a)) => a.get(i)?,
            _ => return None,
        };
    }
    let hits = mentioning(node, path, reason);
    match hits.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The paths of the keys of table `node` (at `path`) whose values `reason` mentions; if none,
/// those found the same way in its nested tables.
fn mentioning(node: &serde_json::Value, path: &str, reason: &str) -> Vec<String> {
    use serde_json::Value;
    let mentioned = |v: &Value| match v {
        Value::String(s) => {
            reason.contains(&format!("'{s}'")) || reason.contains(&format!("string \"{s}\""))
        }
        Value::Bool(b) => reason.contains(&format!("boolean `{b}`")),
        Value::Number(n) => {
            reason.contains(&format!("`{n}`")) || reason.contains(&format!("'{n}'"))
        }
        Value::Array(_) => reason.contains("invalid type: sequence"),
        Value::Object(_) => reason.contains("invalid type: map"),
        Value::Null => false,
    };
    let Some(table) = node.as_object() else { return Vec::new() };
    let direct: Vec<String> = table
        .iter()
        .filter(|(k, v)| *k != "kind" && mentioned(v))
        .map(|(k, _)| format!("{path}.{k}"))
        .collect();
    if !direct.is_empty() {
        return direct;
    }
    table
        .iter()
        .filter(|(_, v)| v.is_object())
        .flat_map(|(k, v)| mentioning(v, &format!("{path}.{k}"), reason))
        .collect()
}

/// Every `limit = ...` of a parsed TOML scenario that reads as a queue limit, with its field
/// path.
pub fn queue_limits_toml(doc: &DeTable) -> Vec<(String, Limit)> {
    let mut out = Vec::new();
    walk_toml(doc, "", &mut out);
    out
}

fn walk_toml(t: &DeTable, prefix: &str, out: &mut Vec<(String, Limit)>) {
    for (k, v) in t.iter() {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        walk_toml_value(v.get_ref(), &path, out);
    }
}

fn walk_toml_value(v: &DeValue, path: &str, out: &mut Vec<(String, Limit)>) {
    match v {
        DeValue::Table(t) => walk_toml(t, path, out),
        DeValue::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| walk_toml_value(x.get_ref(), &format!("{path}[{i}]"), out)),
        DeValue::String(s) if path.ends_with(".limit") => push_limit(s, path, out),
        DeValue::Integer(i) if path.ends_with(".limit") => push_limit(i.as_str(), path, out),
        DeValue::Float(f) if path.ends_with(".limit") => push_limit(f.as_str(), path, out),
        _ => {}
    }
}

/// Every `"limit": ...` of a JSON scenario (the Python builder's form), with its field path.
pub fn queue_limits_json(v: &serde_json::Value, path: &str, out: &mut Vec<(String, Limit)>) {
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match v {
        serde_json::Value::Object(m) => {
            m.iter().for_each(|(k, x)| queue_limits_json(x, &join(k), out))
        }
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| queue_limits_json(x, &format!("{path}[{i}]"), out)),
        serde_json::Value::String(s) if path.ends_with(".limit") => push_limit(s, path, out),
        serde_json::Value::Number(n) if path.ends_with(".limit") => {
            push_limit(&n.to_string(), path, out)
        }
        _ => {}
    }
}

fn push_limit(s: &str, path: &str, out: &mut Vec<(String, Limit)>) {
    if let Ok(l) = parse_limit(s) {
        out.push((path.to_string(), l));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "name = \"x\"\nhosts = [\"a\", \"b\"]\n\n[[links]]\nbetween = [\"a\", \"c\"]\nrate = \"1Mb\"\n\
                       queue = { kind = \"droptail\", limit = \"5000000p\" }\n";

    #[test]
    fn finds_the_line_of_a_field_path() {
        assert_eq!(line_of(DOC, "links[0].between[1]"), Some(5));
        assert_eq!(line_of(DOC, "links[0].rate"), Some(6));
        assert_eq!(line_of(DOC, "hosts[1]"), Some(2));
        // a path that goes beyond the text stops at the deepest part found
        assert_eq!(line_of(DOC, "links[0].queue.missing"), Some(7));
        assert_eq!(line_of(DOC, "nothing.here"), None);
    }

    #[test]
    fn refines_a_path_that_stops_at_a_tagged_table() {
        let doc: serde_json::Value = toml::from_str(&DOC.replace("5000000p", "5000000p2")).unwrap();
        let r = "unknown queue limit unit 'p2' in '5000000p2'";
        assert_eq!(refine_path(&doc, "links[0].queue", r).as_deref(), Some("links[0].queue.limit"));
        assert_eq!(refine_path(&doc, "links[0].queue", "no value named"), None);
        let doc: serde_json::Value =
            serde_json::from_str(r#"{"app": {"kind": "cbr", "rate": true, "x": false}}"#).unwrap();
        let r = "invalid type: boolean `true`, expected a rate";
        assert_eq!(refine_path(&doc, "app", r).as_deref(), Some("app.rate"));
        let doc: serde_json::Value =
            serde_json::from_str(r#"{"app": {"rate": true, "x": true}}"#).unwrap();
        assert_eq!(refine_path(&doc, "app", r), None, "ambiguous: two keys hold `true`");
    }

    #[test]
    fn refines_a_path_into_a_nested_table() {
        let doc: serde_json::Value =
            toml::from_str("[[flows]]\napp = { kind = \"http\", version = \"1.1\", think = { dist = \"uniform\", mean = \"-1s\" } }\n").unwrap();
        let r = "time '-1s' is negative";
        assert_eq!(
            refine_path(&doc, "flows[0].app", r).as_deref(),
            Some("flows[0].app.think.mean")
        );
    }

    #[test]
    fn collects_queue_limits_from_toml_and_json() {
        assert_eq!(
            queue_limits_toml(DeTable::parse(DOC).unwrap().get_ref()),
            vec![("links[0].queue.limit".to_string(), Limit::Packets(5_000_000))]
        );
        let v: serde_json::Value =
            serde_json::from_str(r#"{"links": [{"queue": {"limit": 70}}]}"#).unwrap();
        let mut out = Vec::new();
        queue_limits_json(&v, "", &mut out);
        assert_eq!(out, vec![("links[0].queue.limit".to_string(), Limit::Packets(70))]);
    }
}
