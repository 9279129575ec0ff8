//! A TOML scenario file as JSON text, written exactly as Python writes what `tomllib` reads:
//! `json.dumps(tomllib.loads(text), indent=2)`.
//!
//! `nsim run` copies the scenario it ran into `scenario.json`. Python's `tomllib` and `json`
//! did that; this gives the same bytes from the parser the core already has, so the run path
//! imports neither (issue 14: `json` brings `re` and `enum`, a third of the command's Python
//! start-up). Keys are ordered by where they first appear, which is the insertion order of
//! `tomllib`'s dicts; strings are escaped as `json.dumps` does by default (`ensure_ascii`:
//! everything outside printable ASCII as `\uXXXX`, lower-case hex, surrogate pairs above
//! U+FFFF) and floats written as Python's `repr` (shortest round-trip digits, exponent form
//! below 1e-4 or from 1e16 on, e.g. `1e-05`, `1e+16`, `100.0`). Values JSON cannot carry as
//! `tomllib` gives them (dates and times, NaN and infinities) make it return `None`, and the
//! caller falls back to `tomllib` and `json`.

use std::fmt::Write;

use toml::de::{DeTable, DeValue};

/// Indentation per level, as `indent=2`.
const INDENT: &str = "  ";

/// The document as `json.dumps(tomllib.loads(text), indent=2)` writes it, or `None` if it
/// does not parse or holds a value JSON cannot represent as `tomllib` reads it.
pub fn document_json(text: &str) -> Option<String> {
    let doc = DeTable::parse(text).ok()?;
    let mut out = String::with_capacity(2 * text.len());
    write_table(doc.get_ref(), 0, &mut out)?;
    Some(out)
}

/// A newline and the indentation of `level`.
fn new_line(level: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..level {
        out.push_str(INDENT);
    }
}

fn write_table(table: &DeTable<'_>, level: usize, out: &mut String) -> Option<()> {
    let mut entries: Vec<_> = table.iter().collect();
    if entries.is_empty() {
        out.push_str("{}");
        return Some(());
    }
    entries.sort_by_key(|(k, _)| k.span().start);
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        new_line(level + 1, out);
        write_str(k.get_ref().as_ref(), out);
        out.push_str(": ");
        write_value(v.get_ref(), level + 1, out)?;
    }
    new_line(level, out);
    out.push('}');
    Some(())
}

fn write_value(value: &DeValue<'_>, level: usize, out: &mut String) -> Option<()> {
    match value {
        DeValue::String(s) => write_str(s.as_ref(), out),
        DeValue::Integer(n) => {
            let v = i64::from_str_radix(&n.as_str().replace('_', ""), n.radix()).ok()?;
            write!(out, "{v}").ok()?;
        }
        DeValue::Float(f) => {
            let v: f64 = f.as_str().replace('_', "").parse().ok()?;
            if !v.is_finite() {
                return None;
            }
            write_float(v, out);
        }
        DeValue::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        DeValue::Datetime(_) => return None,
        DeValue::Array(items) if items.is_empty() => out.push_str("[]"),
        DeValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                new_line(level + 1, out);
                write_value(item.get_ref(), level + 1, out)?;
            }
            new_line(level, out);
            out.push(']');
        }
        DeValue::Table(t) => write_table(t, level, out)?,
    }
    Some(())
}

/// A string as `json.dumps` writes it with `ensure_ascii=True` (CPython's
/// `py_encode_basestring_ascii`).
fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// A finite float as Python's `repr` writes it: the shortest digits that read back the same
/// value, in positional form when the decimal exponent is in [-4, 16), else as
/// `d[.ddd]e±XX` (at least two exponent digits); integral values keep a `.0`.
fn write_float(v: f64, out: &mut String) {
    // Rust's `{:e}` gives the same shortest round-trip digits: "-1.2345e-7", "1e16", "0e0".
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let (sign, mantissa) = mantissa.strip_prefix('-').map_or(("", mantissa), |m| ("-", m));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    out.push_str(sign);
    if !(-4..16).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let point = exp as usize + 1;
        if digits.len() > point {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        } else {
            out.push_str(&digits);
            for _ in digits.len()..point {
                out.push('0');
            }
            out.push_str(".0");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_file_order_and_values_their_types() {
        let text =
            "name = \"x\"\nseed = 0x1F\n[z]\nb = 1_000.5\na = [1, \"é\", true, { q = -0.0 }]\n\
                    [[flows]]\nto = \"d\"\nfrom = \"s\"\n[[flows]]\nk.j = 2\n";
        let compact: String = document_json(text).unwrap().lines().map(str::trim_start).collect();
        assert_eq!(
            compact,
            r#"{"name": "x","seed": 31,"z": {"b": 1000.5,"a": [1,"\u00e9",true,{"q": -0.0}]},"flows": [{"to": "d","from": "s"},{"k": {"j": 2}}]}"#
        );
        assert_eq!(document_json("a = []\n[b]\n").unwrap(), "{\n  \"a\": [],\n  \"b\": {}\n}");
    }

    /// Python 3.11's `repr` of these floats (the reference: `python3 -c 'print(repr(x))'`).
    #[test]
    fn floats_are_written_as_python_repr() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (2.5e-7, "2.5e-07"),
            (123.456, "123.456"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e300, "1e+300"),
            (-1.25e-300, "-1.25e-300"),
            (0.30000000000000004, "0.30000000000000004"),
            (9007199254740993.0, "9007199254740992.0"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.001234, "0.001234"),
        ];
        for (v, want) in cases {
            let mut out = String::new();
            write_float(v, &mut out);
            assert_eq!(out, want, "{v:e}");
        }
    }

    /// `json.dumps` escapes (the reference: `python3 -c 'import json; print(json.dumps(s))'`).
    #[test]
    fn strings_are_escaped_as_json_dumps_does() {
        let mut out = String::new();
        write_str("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{7f}é€😀~", &mut out);
        assert_eq!(out, r#""a\"b\\c\n\r\t\b\f\u0001\u007f\u00e9\u20ac\ud83d\ude00~""#);
    }

    #[test]
    fn values_json_cannot_carry_fall_back() {
        for text in ["t = 1979-05-27T07:32:00Z", "x = nan", "x = -inf", "not toml ="] {
            assert_eq!(document_json(text), None, "{text}");
        }
    }
}
