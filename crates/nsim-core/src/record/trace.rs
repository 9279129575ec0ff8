//! Packet traces in the ns-2 trace format, so existing awk scripts run on nsim output.
//!
//! Source: ns-2 `trace/trace.cc` (`Trace::format`), the "normal" wired format:
//!
//! ```text
//! op time from to type size flags fid src.port dst.port seq uid
//! +  1.84375 0 2 cbr 210 ------- 0 0.0 3.1 225 610
//! ```
//!
//! `op` is `+` enqueue, `-` dequeue (start of transmission), `r` receive at `to` (after
//! propagation), `d` drop. Node ids are nsim's node indices (declaration order); ports are the
//! agent's index among the agents of its node, as ns-2 numbers them. Times are exact decimal
//! seconds (ns-2 prints `%.15g`, which agrees up to 15 significant digits). The flags column
//! shows ECN as ns-2 does: `E` (CE) in position 3, `N` (ECT) in position 5; for TCP, `C`
//! (ECN-Echo on an ACK) in position 1 and `A` (ns-2 `cong_action`, CWR: the first segment
//! after a window reduction) in position 4.

use std::fs::File;
use std::io::{BufWriter, Write};

use crate::ids::NodeId;
use crate::packet::flags as tcp_flags;
use crate::packet::{Ecn, PType, Packet};
use crate::time::{fmt_secs, SimTime};

/// Writes trace lines; created only when tracing is on.
pub struct Ns2Trace {
    out: BufWriter<File>,
    /// Port number of each agent (by agent index).
    ports: Vec<u32>,
}

impl Ns2Trace {
    pub fn create(path: &str, ports: Vec<u32>) -> std::io::Result<Self> {
        Ok(Ns2Trace { out: BufWriter::with_capacity(1 << 16, File::create(path)?), ports })
    }

    pub fn line(&mut self, op: char, t: SimTime, from: NodeId, to: NodeId, p: &Packet) {
        let mut f = *b"-------";
        if p.ecn == Ecn::Ce {
            f[2] = b'E';
        }
        if p.ecn != Ecn::NotEct {
            f[4] = b'N';
        }
        if p.ptype == PType::Ack && p.tcp.flags & tcp_flags::ECE != 0 {
            f[0] = b'C';
        }
        if p.ptype == PType::Tcp && p.tcp.flags & tcp_flags::CWR != 0 {
            f[3] = b'A';
        }
        let flags = std::str::from_utf8(&f).expect("ASCII");
        let sport = self.ports.get(p.src_agent.idx()).copied().unwrap_or(0);
        let dport = self.ports.get(p.dst_agent.idx()).copied().unwrap_or(0);
        // ns-2's routing agents leave the sequence number at -1.
        let seq = if p.ptype == PType::RtProtoDv { -1 } else { p.seq as i64 };
        // A failed write surfaces in `finish`; the run itself must not stop for it.
        let _ = writeln!(
            self.out,
            "{op} {} {} {} {} {} {flags} {} {}.{sport} {}.{dport} {seq} {}",
            fmt_secs(t.0),
            from.0,
            to.0,
            if p.tcp.ns2_ack_type { PType::Ack.ns2_name() } else { p.ptype.ns2_name() },
            p.size,
            p.flow.0,
            p.src.0,
            p.dst.0,
            p.uid
        );
    }

    pub fn finish(mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
