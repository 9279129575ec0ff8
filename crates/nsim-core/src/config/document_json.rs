//! A TOML scenario file as JSON text, keys in the order they first appear in the file.
//!
//! `nsim run` copies the scenario it ran into `scenario.json`. Python's `tomllib` did the
//! parsing there; this gives the same document from the parser the core already has, so the
//! run path need not import `tomllib` (issue 14: start-up memory). Keys are ordered by where
//! they first appear, which is the insertion order of `tomllib`'s dicts. Values JSON cannot
//! carry as `tomllib` gives them (dates and times, NaN and infinities) make it return `None`,
//! and the caller falls back to `tomllib`.

use std::fmt::Write;

use toml::de::{DeTable, DeValue};

/// The document as compact JSON, or `None` if it does not parse or holds a value JSON
/// cannot represent as `tomllib` reads it.
pub fn document_json(text: &str) -> Option<String> {
    let doc = DeTable::parse(text).ok()?;
    let mut out = String::with_capacity(text.len());
    write_table(doc.get_ref(), &mut out)?;
    Some(out)
}

fn write_table(table: &DeTable<'_>, out: &mut String) -> Option<()> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(k.get_ref().as_ref()).ok()?);
        out.push(':');
        write_value(v.get_ref(), out)?;
    }
    out.push('}');
    Some(())
}

fn write_value(value: &DeValue<'_>, out: &mut String) -> Option<()> {
    match value {
        DeValue::String(s) => out.push_str(&serde_json::to_string(s.as_ref()).ok()?),
        DeValue::Integer(n) => {
            let v = i64::from_str_radix(&n.as_str().replace('_', ""), n.radix()).ok()?;
            write!(out, "{v}").ok()?;
        }
        DeValue::Float(f) => {
            let v: f64 = f.as_str().replace('_', "").parse().ok()?;
            if !v.is_finite() {
                return None;
            }
            out.push_str(&serde_json::to_string(&v).ok()?);
        }
        DeValue::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        DeValue::Datetime(_) => return None,
        DeValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item.get_ref(), out)?;
            }
            out.push(']');
        }
        DeValue::Table(t) => write_table(t, out)?,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_file_order_and_values_their_types() {
        let text = "name = \"x\"\nseed = 0x1F\n[z]\nb = 1_000.5\na = [1, \"é\", true, { q = -0.0 }]\n\
                    [[flows]]\nto = \"d\"\nfrom = \"s\"\n[[flows]]\nk.j = 2\n";
        assert_eq!(
            document_json(text).unwrap(),
            r#"{"name":"x","seed":31,"z":{"b":1000.5,"a":[1,"é",true,{"q":-0.0}]},"flows":[{"to":"d","from":"s"},{"k":{"j":2}}]}"#
        );
    }

    #[test]
    fn values_json_cannot_carry_fall_back() {
        for text in ["t = 1979-05-27T07:32:00Z", "x = nan", "x = -inf", "not toml ="] {
            assert_eq!(document_json(text), None, "{text}");
        }
    }
}
