//! Completed transfers moved out of memory while a run goes, and read back in the order the
//! `transfers` table lists them (by flow, then completion), with bounded memory.
//!
//! The flows' buffers (`FlowStats::transfers`) are emptied into a spill file as one *chunk*
//! once they hold [`CHUNK_ROWS`] rows: flow by flow, so every chunk is sorted by flow, and a
//! flow's rows in chunk c all completed before its rows in chunk c + 1. Reading back is then
//! a merge of the chunks (an external merge sort whose runs are already sorted): for the
//! lowest flow any chunk still holds, each chunk's rows of that flow, chunk by chunk. Memory:
//! the buffers (at most [`CHUNK_ROWS`] rows of 32 B, plus what completes between two checks)
//! and, while merging, [`READ_ROWS`] rows (2.3 KB) per chunk.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::record::flow_stats::{FlowStats, Transfer, TransferKind};
use crate::time::SimTime;

/// Rows buffered in memory before they are spilled as one chunk (a hundred in unit tests, so
/// a short run spills several).
pub const CHUNK_ROWS: usize = if cfg!(test) { 100 } else { 1 << 16 };

/// Rows each chunk reads at a time while merging.
const READ_ROWS: usize = 80;

/// Bytes of one spilled row: flow (u32), kind (u8), bytes, start and end (u64 each, ps).
const RECORD: usize = 29;

/// The spill file of a run and where its chunks end.
pub struct TransferSpill {
    path: PathBuf,
    file: Option<BufWriter<File>>,
    /// End offset of each chunk (the first starts at 0).
    chunk_ends: Vec<u64>,
    written: u64,
}

impl TransferSpill {
    /// A spill at `path` (created with the first chunk; removed after [`TransferSpill::merge`]).
    pub fn new(path: PathBuf) -> Self {
        TransferSpill { path, file: None, chunk_ends: Vec::new(), written: 0 }
    }

    /// Spills the flows' buffered rows as one chunk if they hold [`CHUNK_ROWS`] or more.
    pub fn spill_if_full(&mut self, flows: &mut [FlowStats]) -> io::Result<()> {
        if flows.iter().map(|f| f.transfers.len()).sum::<usize>() >= CHUNK_ROWS {
            self.spill(flows)?;
        }
        Ok(())
    }

    /// Spills every buffered row as one chunk (none if no row is buffered).
    pub fn spill(&mut self, flows: &mut [FlowStats]) -> io::Result<()> {
        if flows.iter().all(|f| f.transfers.is_empty()) {
            return Ok(());
        }
        let file = match &mut self.file {
            Some(f) => f,
            None => {
                // Read back by `merge`, so opened for reading too.
                let f = File::options()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(&self.path)?;
                self.file.insert(BufWriter::with_capacity(1 << 16, f))
            }
        };
        for (i, f) in flows.iter_mut().enumerate() {
            for t in f.transfers.drain(..) {
                file.write_all(&encode(i as u32, &t))?;
                self.written += RECORD as u64;
            }
        }
        self.chunk_ends.push(self.written);
        Ok(())
    }

    /// Calls `emit(flow, k, transfer)` for every spilled row, by flow then completion (`k`:
    /// the row's number within its flow), then removes the spill file.
    pub fn merge(
        mut self,
        emit: &mut dyn FnMut(u32, u32, &Transfer) -> io::Result<()>,
    ) -> io::Result<()> {
        let Some(mut w) = self.file.take() else { return Ok(()) };
        w.flush()?;
        let mut file = w.into_inner().map_err(|e| e.into_error())?;
        let mut runs = Vec::with_capacity(self.chunk_ends.len());
        let mut start = 0;
        for &end in &self.chunk_ends {
            let mut run = Run { pos: start, end, buf: Vec::new(), at: 0, head: None };
            run.advance(&mut file)?;
            runs.push(run);
            start = end;
        }
        while let Some(flow) = runs.iter().filter_map(|r| r.head.map(|(f, _)| f)).min() {
            let mut k = 0;
            for run in &mut runs {
                while let Some((f, t)) = run.head.filter(|(f, _)| *f == flow) {
                    emit(f, k, &t)?;
                    k += 1;
                    run.advance(&mut file)?;
                }
            }
        }
        drop(file);
        std::fs::remove_file(&self.path)
    }
}

/// One chunk being read: the rows left in `pos..end` of the file, a few in `buf`, and the
/// next row (`head`, None when the chunk is exhausted).
struct Run {
    pos: u64,
    end: u64,
    buf: Vec<u8>,
    at: usize,
    head: Option<(u32, Transfer)>,
}

impl Run {
    /// Moves `head` to the next row, reading the next few rows when `buf` is used up.
    fn advance(&mut self, file: &mut File) -> io::Result<()> {
        if self.at == self.buf.len() {
            let n = (self.end - self.pos).min((READ_ROWS * RECORD) as u64) as usize;
            self.buf.resize(n, 0);
            file.seek(SeekFrom::Start(self.pos))?;
            file.read_exact(&mut self.buf)?;
            self.pos += n as u64;
            self.at = 0;
        }
        self.head = None;
        if let Some(rec) = self.buf.get(self.at..self.at + RECORD) {
            self.head = Some(decode(rec)?);
            self.at += RECORD;
        }
        Ok(())
    }
}

fn encode(flow: u32, t: &Transfer) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[0..4].copy_from_slice(&flow.to_le_bytes());
    r[4] = t.kind as u8;
    r[5..13].copy_from_slice(&t.bytes.to_le_bytes());
    r[13..21].copy_from_slice(&t.start.0.to_le_bytes());
    r[21..29].copy_from_slice(&t.end.0.to_le_bytes());
    r
}

fn decode(r: &[u8]) -> io::Result<(u32, Transfer)> {
    let u64_at = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().expect("8 bytes"));
    let kind = match r[4] {
        0 => TransferKind::File,
        1 => TransferKind::Page,
        2 => TransferKind::Object,
        3 => TransferKind::Echo,
        k => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("transfer spill: unknown kind {k}"),
            ))
        }
    };
    let flow = u32::from_le_bytes(r[0..4].try_into().expect("4 bytes"));
    Ok((
        flow,
        Transfer { start: SimTime(u64_at(13)), end: SimTime(u64_at(21)), bytes: u64_at(5), kind },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(flow: u32, n: u64) -> (u32, Transfer) {
        let kind =
            [TransferKind::File, TransferKind::Page, TransferKind::Object, TransferKind::Echo]
                [n as usize % 4];
        (
            flow,
            Transfer { start: SimTime(n), end: SimTime(n * 3 + flow as u64), bytes: n * 7, kind },
        )
    }

    /// Rows spilled in several chunks come back as one sort by flow (stable: completion order
    /// within a flow), whatever the chunks' sizes: the order `Results::collect` lists them in.
    #[test]
    fn merge_gives_flow_then_completion_order() {
        let dir = std::env::temp_dir().join(format!("nsim-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.spill");
        let mut spill = TransferSpill::new(path.clone());
        let mut flows: Vec<FlowStats> = (0..4).map(|_| FlowStats::default()).collect();
        let mut completed = Vec::new();
        // 1,000 rows completing in a scrambled flow order, spilled at uneven points
        // (more than READ_ROWS per chunk and flow, so runs refill their buffers).
        for n in 0..1000u64 {
            let (flow, t) = row(((n * 7) % 4) as u32 ^ ((n / 300) as u32 % 4), n);
            flows[flow as usize].transfers.push(t);
            completed.push((flow, t));
            if n % 333 == 0 || n == 998 {
                spill.spill(&mut flows).unwrap();
            }
        }
        spill.spill(&mut flows).unwrap();
        assert!(flows.iter().all(|f| f.transfers.is_empty()));
        let mut expected = completed.clone();
        expected.sort_by_key(|(f, _)| *f);
        let mut got = Vec::new();
        let mut ks = Vec::new();
        spill
            .merge(&mut |f, k, t| {
                got.push((f, *t));
                ks.push(k);
                Ok(())
            })
            .unwrap();
        assert_eq!(got, expected);
        for f in 0..4u32 {
            let k: Vec<u32> =
                got.iter().zip(&ks).filter(|((g, _), _)| *g == f).map(|(_, k)| *k).collect();
            assert_eq!(k, (0..k.len() as u32).collect::<Vec<_>>());
        }
        assert!(!path.exists(), "the spill file is removed after the merge");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
