//! Results files written by the core: `summary.json`, `flows.csv`, `queues.csv`,
//! `classes.csv`, `transfers.csv`, `events.csv`, `series_<kind>.csv`, `packet_delays.csv`, `video_packets.csv` and `windows.csv`, so `nsim run` needs no
//! DataFrame library (issue 14: the CLI's start-up cost was pandas).
//!
//! The tables have the columns `nsim.Results` shows (docs/results.md): row fields in their
//! declared order with the `drops` map spread into one `drops_<reason>` column per reason at
//! the end; classes and series get the node names (`from`, `to`) or flow `name` beside the
//! link or flow id. Missing values are empty cells; floats use the shortest text that reads
//! back to the same number.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::record::DropReason;
use crate::results::Results;

pub(crate) type Row = IndexMap<String, Value>;

/// Writes every table of `res` into `dir` (created if needed).
pub fn write_dir(res: &Results, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let summary = serde_json::to_string_pretty(&res.summary()).map_err(io::Error::other)?;
    std::fs::write(dir.join("summary.json"), summary + "\n")?;
    let names: Vec<&str> = res.flows.iter().map(|f| f.name.as_str()).collect();
    let ends: Vec<(&str, &str)> =
        res.queues.iter().map(|q| (q.from.as_str(), q.to.as_str())).collect();
    write_table(&dir.join("flows.csv"), &rows(&res.flows)?, &window_columns(res))?;
    write_table(&dir.join("queues.csv"), &rows(&res.queues)?, &[])?;
    if !res.classes.is_empty() {
        let mut classes = rows(&res.classes)?;
        for r in &mut classes {
            let (a, b) = r
                .get("link")
                .and_then(Value::as_u64)
                .and_then(|l| ends.get(l as usize))
                .copied()
                .unwrap_or(("", ""));
            r.shift_insert(1, "from".into(), a.into());
            r.shift_insert(2, "to".into(), b.into());
        }
        write_table(&dir.join("classes.csv"), &classes, &[])?;
    }
    if !res.transfers.is_empty() {
        write_table(&dir.join("transfers.csv"), &rows(&res.transfers)?, &[])?;
    }
    if !res.event_log.is_empty() {
        write_table(&dir.join("events.csv"), &rows(&res.event_log)?, &[])?;
    }
    for (kind, cols) in columns(&res.series)? {
        write_columns(&dir.join(format!("series_{kind}.csv")), &cols, &names, &ends)?;
    }
    if !res.windows.is_empty() {
        write_columns(&dir.join("windows.csv"), &windows_long(res), &names, &ends)?;
    }
    if let Some(pd) = &res.packet_delays {
        let cols = columns_of(pd)?;
        write_columns(&dir.join("packet_delays.csv"), &cols, &names, &ends)?;
    }
    if let Some(vp) = &res.video_packets {
        write_columns(&dir.join("video_packets.csv"), &columns_of(vp)?, &names, &ends)?;
    }
    Ok(())
}

/// Rows as ordered maps (serde_json alone would sort the keys).
pub(crate) fn rows<T: Serialize>(items: &[T]) -> io::Result<Vec<Row>> {
    items.iter().map(|r| ordered(r)).collect()
}

fn ordered<T: Serialize>(v: &T) -> io::Result<Row> {
    let text = serde_json::to_string(v).map_err(io::Error::other)?;
    serde_json::from_str(&text).map_err(io::Error::other)
}

/// `record.windows` as per-flow columns `window<k>_goodput_bytes` / `_bps` (after the drops
/// columns, as `nsim.Results.flows` has them).
fn window_columns(res: &Results) -> Columns {
    let mut out = Columns::new();
    for (k, w) in res.windows.iter().enumerate() {
        out.push((
            format!("window{k}_goodput_bytes"),
            w.goodput_bytes.iter().map(|&b| Value::from(b.map(|b| b as f64))).collect(),
        ));
        out.push((
            format!("window{k}_goodput_bps"),
            w.goodput_bps.iter().map(|&r| Value::from(r)).collect(),
        ));
    }
    out
}

/// `windows.csv`: one row per (window, flow).
fn windows_long(res: &Results) -> Columns {
    let n = res.flows.len();
    let mut cols: Columns = ["window", "t0_s", "t1_s", "flow", "goodput_bytes", "goodput_bps"]
        .iter()
        .map(|c| (c.to_string(), Vec::new()))
        .collect();
    for (k, w) in res.windows.iter().enumerate() {
        for i in 0..n {
            let row = [
                Value::from(k),
                Value::from(w.t0_s),
                Value::from(w.t1_s),
                Value::from(res.flows[i].flow),
                Value::from(w.goodput_bytes[i].map(|b| b as f64)),
                Value::from(w.goodput_bps[i]),
            ];
            for (c, v) in cols.iter_mut().zip(row) {
                c.1.push(v);
            }
        }
    }
    cols
}

/// Writes rows, the `drops` map spread into `drops_<reason>` columns, then the `tail` columns.
fn write_table(path: &Path, rows: &[Row], tail: &[(String, Vec<Value>)]) -> io::Result<()> {
    let mut t = TableFile::create(path)?;
    t.append(rows, tail)?;
    t.finish()
}

/// A table written in batches (`transfers.csv` while a run streams it): the header comes
/// from the first row of the first non-empty batch, every batch's rows follow in order.
pub(crate) struct TableFile {
    w: csv::Writer<BufWriter<File>>,
    /// Whether rows carry a `drops` map; None until the header is written.
    has_drops: Option<bool>,
}

impl TableFile {
    pub(crate) fn create(path: &Path) -> io::Result<Self> {
        Ok(TableFile {
            w: csv::Writer::from_writer(BufWriter::new(File::create(path)?)),
            has_drops: None,
        })
    }

    /// Appends `rows` (and their `tail` column values, one per row).
    pub(crate) fn append(&mut self, rows: &[Row], tail: &[(String, Vec<Value>)]) -> io::Result<()> {
        let Some(first) = rows.first() else { return Ok(()) };
        let has_drops = match self.has_drops {
            Some(d) => d,
            None => {
                let d = first.contains_key("drops");
                let mut head: Vec<String> =
                    first.keys().filter(|k| *k != "drops").cloned().collect();
                if d {
                    head.extend(DropReason::ALL.iter().map(|r| format!("drops_{}", r.name())));
                }
                head.extend(tail.iter().map(|(k, _)| k.clone()));
                self.w.write_record(&head)?;
                *self.has_drops.insert(d)
            }
        };
        let mut rec: Vec<String> = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            rec.clear();
            rec.extend(r.iter().filter(|(k, _)| *k != "drops").map(|(_, v)| cell(v)));
            if has_drops {
                let d = r.get("drops").and_then(Value::as_object);
                rec.extend(
                    DropReason::ALL
                        .iter()
                        .map(|x| d.and_then(|m| m.get(x.name())).map_or("0".into(), cell)),
                );
            }
            rec.extend(tail.iter().map(|(_, v)| cell(&v[i])));
            self.w.write_record(&rec)?;
        }
        Ok(())
    }

    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// A column-wise struct (series) as (column name, values).
pub(crate) type Columns = Vec<(String, Vec<Value>)>;

/// Every non-empty series of a run, by kind.
pub(crate) fn columns<T: Serialize>(series: &T) -> io::Result<Vec<(String, Columns)>> {
    let all: IndexMap<String, IndexMap<String, Vec<Value>>> = {
        let text = serde_json::to_string(series).map_err(io::Error::other)?;
        serde_json::from_str(&text).map_err(io::Error::other)?
    };
    Ok(all
        .into_iter()
        .map(|(k, cols)| (k, cols.into_iter().collect::<Columns>()))
        .filter(|(_, cols)| cols.first().is_some_and(|(_, v)| !v.is_empty()))
        .collect())
}

fn columns_of<T: Serialize>(v: &T) -> io::Result<Columns> {
    let text = serde_json::to_string(v).map_err(io::Error::other)?;
    let m: IndexMap<String, Vec<Value>> = serde_json::from_str(&text).map_err(io::Error::other)?;
    Ok(m.into_iter().collect())
}

/// Writes columns as rows, adding `name` after a `flow` column and `from`, `to` after a
/// `link` column (as `nsim.Results` shows series).
fn write_columns(
    path: &Path,
    cols: &Columns,
    names: &[&str],
    ends: &[(&str, &str)],
) -> io::Result<()> {
    let mut f = ColumnsFile::create(path)?;
    f.append(cols, names, ends)?;
    f.finish()
}

/// A column-wise table written in batches (a series while a run streams it): the header
/// with the first batch, then every batch's rows in order.
pub(crate) struct ColumnsFile {
    w: csv::Writer<BufWriter<File>>,
    headed: bool,
}

impl ColumnsFile {
    pub(crate) fn create(path: &Path) -> io::Result<Self> {
        Ok(ColumnsFile {
            w: csv::Writer::from_writer(BufWriter::new(File::create(path)?)),
            headed: false,
        })
    }

    /// Appends the rows of `cols` (the header first, on the first call).
    pub(crate) fn append(
        &mut self,
        cols: &Columns,
        names: &[&str],
        ends: &[(&str, &str)],
    ) -> io::Result<()> {
        if !self.headed {
            let mut head: Vec<&str> = Vec::new();
            for (k, _) in cols {
                head.push(k);
                match k.as_str() {
                    "flow" => head.push("name"),
                    "link" => head.extend(["from", "to"]),
                    _ => {}
                }
            }
            self.w.write_record(&head)?;
            self.headed = true;
        }
        let n = cols.first().map_or(0, |(_, v)| v.len());
        let mut rec: Vec<String> = Vec::new();
        for i in 0..n {
            rec.clear();
            for (k, v) in cols {
                let x = &v[i];
                rec.push(cell(x));
                let id = x.as_u64().unwrap_or(u64::MAX) as usize;
                match k.as_str() {
                    "flow" => rec.push(names.get(id).copied().unwrap_or("").to_string()),
                    "link" => {
                        let (a, b) = ends.get(id).copied().unwrap_or(("", ""));
                        rec.push(a.to_string());
                        rec.push(b.to_string());
                    }
                    _ => {}
                }
            }
            self.w.write_record(&rec)?;
        }
        Ok(())
    }

    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// One CSV cell: empty for a missing value, floats in their shortest round-trip form.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.to_string(),
            (_, Some(i), _) => i.to_string(),
            (_, _, Some(f)) => format!("{f:?}"),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
