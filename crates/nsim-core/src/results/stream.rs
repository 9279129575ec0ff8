//! Results written into the run's folder while the run goes (`nsim run`; issue 29): the
//! tables that grow with the run's length, the time series and the transfers, leave memory in
//! batches, so writing them needs a bounded amount of memory however long the run (the
//! figures are in docs/performance.md). The files are byte for byte the ones
//! [`super::files::write_dir`] writes from results held whole: the same cell formatting, and
//! the same row order (series rows in time order as sampled; transfers by flow, then
//! completion, through [`TransferSpill`]).
//!
//! Series samples are appended to `series_<kind>.csv` every [`SERIES_BATCH`] samples (the
//! check runs where a sample is taken, never on the packet path); transfers are spilled once
//! [`CHUNK_ROWS`](super::transfer_spill::CHUNK_ROWS) are buffered (checked with the run's
//! progress, every few hundred thousand events) and merged into `transfers.csv` at the end.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::files::{columns, rows, ColumnsFile, TableFile};
use super::transfer_spill::TransferSpill;
use crate::record::flow_stats::FlowStats;
use crate::record::series::Series;
use crate::results::TransferRow;

/// Series samples held before they are appended to their files (about 300 B each while
/// being formatted; a few hundred in unit tests, so a short run appends many batches).
pub const SERIES_BATCH: usize = if cfg!(test) { 300 } else { 1 << 13 };

/// Transfer rows formatted at a time while `transfers.csv` is written (about 1.6 KB each
/// while being formatted).
const WRITE_ROWS: usize = 1 << 11;

/// The series files and the transfer spill of a run that writes into `dir`.
pub struct ResultsStream {
    dir: PathBuf,
    /// Flow names and link ends (`from`, `to`), by id, for the series' `name`, `from`, `to`.
    names: Vec<String>,
    ends: Vec<(String, String)>,
    /// The series files opened so far (a kind's file opens with its first samples).
    series: Vec<(String, ColumnsFile)>,
    transfers: TransferSpill,
    /// The first write error: the run goes on, and [`ResultsStream::finish`] reports it.
    error: Option<io::Error>,
    /// Wall time spent writing during the run (not the event loop's: `Results::wall_s`).
    write_s: f64,
}

impl ResultsStream {
    pub fn new(dir: &Path, names: Vec<String>, ends: Vec<(String, String)>) -> Self {
        let transfers = TransferSpill::new(dir.join(".transfers.spill"));
        ResultsStream {
            dir: dir.to_path_buf(),
            names,
            ends,
            series: Vec::new(),
            transfers,
            error: None,
            write_s: 0.0,
        }
    }

    /// Appends the samples in `data` to their files and empties it.
    pub fn series(&mut self, data: &mut Series) {
        let wall = Instant::now();
        if let Err(e) = self.append_series(data) {
            self.error.get_or_insert(e);
        }
        self.write_s += wall.elapsed().as_secs_f64();
    }

    /// Spills the flows' completed transfers if they hold a chunk's worth.
    pub fn transfers(&mut self, flows: &mut [FlowStats]) {
        let wall = Instant::now();
        if let Err(e) = self.transfers.spill_if_full(flows) {
            self.error.get_or_insert(e);
        }
        self.write_s += wall.elapsed().as_secs_f64();
    }

    /// Wall time spent writing so far.
    pub fn write_s(&self) -> f64 {
        self.write_s
    }

    /// Writes what is left (`data`'s samples, the flows' transfers), completes
    /// `transfers.csv` and closes every file; returns the first error of the run's writes.
    pub fn finish(mut self, data: &mut Series, flows: &mut [FlowStats]) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.append_series(data)?;
        for (_, f) in self.series {
            f.finish()?;
        }
        self.transfers.spill(flows)?;
        let path = self.dir.join("transfers.csv");
        let mut table = None;
        let mut batch = Vec::with_capacity(WRITE_ROWS);
        let names = &self.names;
        self.transfers.merge(&mut |flow, k, t| {
            batch.push(TransferRow::new(flow, &names[flow as usize], k, t));
            if batch.len() < WRITE_ROWS {
                return Ok(());
            }
            append_transfers(&mut table, &path, &mut batch)
        })?;
        append_transfers(&mut table, &path, &mut batch)?;
        table.map_or(Ok(()), TableFile::finish)
    }

    fn append_series(&mut self, data: &mut Series) -> io::Result<()> {
        let taken = std::mem::take(data);
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let ends: Vec<(&str, &str)> =
            self.ends.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        for (kind, cols) in columns(&taken)? {
            let at = match self.series.iter().position(|(k, _)| *k == kind) {
                Some(at) => at,
                None => {
                    let path = self.dir.join(format!("series_{kind}.csv"));
                    let file = ColumnsFile::create(&path).map_err(|e| named(&path, e))?;
                    self.series.push((kind, file));
                    self.series.len() - 1
                }
            };
            self.series[at].1.append(&cols, &names, &ends)?;
        }
        Ok(())
    }
}

/// Appends `batch` to `transfers.csv` (created with the first rows) and empties it.
fn append_transfers(
    table: &mut Option<TableFile>,
    path: &Path,
    batch: &mut Vec<TransferRow>,
) -> io::Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    let t = match table {
        Some(t) => t,
        None => table.insert(TableFile::create(path).map_err(|e| named(path, e))?),
    };
    t.append(&rows(batch)?, &[])?;
    batch.clear();
    Ok(())
}

/// `e` with the file it happened to (an `io::Error` from opening a file does not say).
fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
