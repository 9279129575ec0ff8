//! pcap capture files, one per chosen link direction, so Wireshark and tcpdump read nsim runs
//! (issue 8).
//!
//! Read first: the classic libpcap file format (tcpdump.org `pcap-savefile(5)`,
//! draft-ietf-opsawg-pcap §4-5) with the nanosecond magic `0xa1b23c4d`; link type
//! `LINKTYPE_RAW` (101: the packet starts with its IP header); IPv4 (RFC 791 §3.1), TCP
//! (RFC 9293 §3.1), the SACK option (RFC 2018 §3) and UDP (RFC 768), with the Internet
//! checksum of RFC 1071.
//!
//! nsim packets carry sizes, not bytes, so headers are synthesised from the packet's fields
//! when it starts transmission on the link (the ns-2 trace's `-` event):
//! - addresses: node *i* is `10.0.0.0 + i + 1` (node 0 = 10.0.0.1);
//! - ports: 1024 + the agent's ns-2 port (its index among the agents of its node), so
//!   `src.port` of the ns-2 trace is `sport - 1024`;
//! - TCP sequence and acknowledgement numbers are ns-2's, in packets (data: `seq` = the
//!   trace's seq column; ACKs: `ack` = the trace's seq column, the highest in-order packet);
//!   flags: ACK on acknowledgements, SYN on ns-2's header-only first segment, ECE/CWR as set;
//!   window 65535; SACK blocks as a NOP, NOP, SACK option;
//! - IP total length = the packet's wire size (at least its headers: ns-2 counts 8 bytes per
//!   SACK block, real TCP 8 per block plus 4), ECN in the TOS field, ID = low 16 bits of the
//!   packet uid, TTL 64;
//! - only the headers are captured (`incl_len` < `orig_len`); the TCP/UDP checksums are those
//!   of the full datagram with an all-zero payload, so they are valid.
//!
//! Writing a record copies into a stack buffer: no allocation per packet.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::ids::{LinkId, NodeId};
use crate::packet::{Ecn, PType, Packet};
use crate::tcp::flags as tcp_flags;
use crate::time::SimTime;

/// `LINKTYPE_RAW`: raw IPv4/IPv6, no link-layer header.
pub const LINKTYPE_RAW: u32 = 101;
/// Magic of a pcap file with nanosecond timestamps.
pub const MAGIC_NANO: u32 = 0xa1b2_3c4d;
/// First port number given to agents.
pub const PORT_BASE: u32 = 1024;

const IP_HDR: usize = 20;
const TCP_HDR: usize = 20;
const UDP_HDR: usize = 8;
/// Record header (16) + IP (20) + TCP (20) + NOP, NOP, SACK with 3 blocks (28).
const MAX_RECORD: usize = 16 + IP_HDR + TCP_HDR + 4 + 3 * 8;

/// The IPv4 address of node `n`.
pub fn node_addr(n: NodeId) -> [u8; 4] {
    (0x0a00_0000u32 + n.0 + 1).to_be_bytes()
}

/// Open capture files, indexed by link id (`None`: not captured).
pub struct PcapFiles {
    files: Vec<Option<BufWriter<File>>>,
    /// ns-2 port of each agent (by agent index).
    ports: Vec<u32>,
    error: Option<io::Error>,
}

impl PcapFiles {
    /// Creates `dir` and one file per chosen link: `(link id, file name)`.
    pub fn create(dir: &Path, chosen: &[(LinkId, String)], n_links: usize, ports: Vec<u32>) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let mut files: Vec<Option<BufWriter<File>>> = (0..n_links).map(|_| None).collect();
        for (l, name) in chosen {
            let path: PathBuf = dir.join(name);
            let mut w = BufWriter::with_capacity(1 << 14, File::create(&path)?);
            let mut head = [0u8; 24];
            head[0..4].copy_from_slice(&MAGIC_NANO.to_le_bytes());
            head[4..6].copy_from_slice(&2u16.to_le_bytes());
            head[6..8].copy_from_slice(&4u16.to_le_bytes());
            head[16..20].copy_from_slice(&65535u32.to_le_bytes());
            head[20..24].copy_from_slice(&LINKTYPE_RAW.to_le_bytes());
            w.write_all(&head)?;
            files[l.idx()] = Some(w);
        }
        Ok(PcapFiles { files, ports, error: None })
    }

    /// Packet `p` starts transmission on link `l` at `t`.
    #[inline]
    pub fn departure(&mut self, l: LinkId, t: SimTime, p: &Packet) {
        let Some(Some(w)) = self.files.get_mut(l.idx()) else { return };
        let mut buf = [0u8; MAX_RECORD];
        let n = encode(p, t, &self.ports, &mut buf);
        if let Err(e) = w.write_all(&buf[..n]) {
            // The run goes on; the first error surfaces in `finish`.
            self.error.get_or_insert(e);
        }
    }

    pub fn finish(self) -> io::Result<()> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for w in self.files.into_iter().flatten() {
            w.into_inner().map_err(|e| e.into_error())?;
        }
        Ok(())
    }
}

/// Writes one record (header and synthesised IP/TCP or IP/UDP headers) into `buf`; returns
/// its length.
pub fn encode(p: &Packet, t: SimTime, ports: &[u32], buf: &mut [u8; MAX_RECORD]) -> usize {
    let is_tcp = matches!(p.ptype, PType::Tcp | PType::Ack);
    let nsack = if is_tcp { (p.tcp.nsack as usize).min(3) } else { 0 };
    let l4 = if is_tcp { TCP_HDR + if nsack > 0 { 4 + 8 * nsack } else { 0 } } else { UDP_HDR };
    let hdr = IP_HDR + l4;
    let ip_len = (p.size as usize).clamp(hdr, 65535);
    let ns = t.0 / 1000;
    buf[0..4].copy_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
    buf[4..8].copy_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
    buf[8..12].copy_from_slice(&(hdr as u32).to_le_bytes());
    buf[12..16].copy_from_slice(&(ip_len as u32).to_le_bytes());
    let (src, dst) = (node_addr(p.src), node_addr(p.dst));
    let proto: u8 = if is_tcp { 6 } else { 17 };
    let ip = &mut buf[16..16 + IP_HDR];
    ip[0] = 0x45;
    ip[1] = match p.ecn {
        Ecn::NotEct => 0,
        Ecn::Ect => 0b10,
        Ecn::Ce => 0b11,
    };
    ip[2..4].copy_from_slice(&(ip_len as u16).to_be_bytes());
    ip[4..6].copy_from_slice(&(p.uid as u16).to_be_bytes());
    ip[8] = 64;
    ip[9] = proto;
    ip[12..16].copy_from_slice(&src);
    ip[16..20].copy_from_slice(&dst);
    let c = !fold(sum16(ip));
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    let port = |a: crate::ids::AgentId| (PORT_BASE + ports.get(a.idx()).copied().unwrap_or(0)) as u16;
    let seg_len = ip_len - IP_HDR;
    let l = &mut buf[16 + IP_HDR..16 + hdr];
    l[0..2].copy_from_slice(&port(p.src_agent).to_be_bytes());
    l[2..4].copy_from_slice(&port(p.dst_agent).to_be_bytes());
    let ck_at = if is_tcp {
        let ack = p.ptype == PType::Ack;
        let (seq, ackno) = if ack { (0, p.tcp.ack) } else { (p.tcp.seq, 0) };
        l[4..8].copy_from_slice(&(seq as u32).to_be_bytes());
        l[8..12].copy_from_slice(&(ackno as u32).to_be_bytes());
        l[12] = ((l4 / 4) as u8) << 4;
        let mut f = if ack { 0x10 } else { 0 };
        if p.tcp.flags & tcp_flags::SYN != 0 {
            f |= 0x02;
        }
        if p.tcp.flags & tcp_flags::ECE != 0 {
            f |= 0x40;
        }
        if p.tcp.flags & tcp_flags::CWR != 0 {
            f |= 0x80;
        }
        l[13] = f;
        l[14..16].copy_from_slice(&65535u16.to_be_bytes());
        if nsack > 0 {
            l[20] = 1;
            l[21] = 1;
            l[22] = 5;
            l[23] = (2 + 8 * nsack) as u8;
            for (i, &(left, right)) in p.tcp.sack[..nsack].iter().enumerate() {
                l[24 + 8 * i..28 + 8 * i].copy_from_slice(&(left as u32).to_be_bytes());
                l[28 + 8 * i..32 + 8 * i].copy_from_slice(&(right as u32).to_be_bytes());
            }
        }
        16
    } else {
        l[4..6].copy_from_slice(&(seg_len as u16).to_be_bytes());
        6
    };
    // Pseudo-header (RFC 9293 §3.1, RFC 768) + header; the zero payload adds nothing.
    let pseudo = sum16(&src) + sum16(&dst) + u32::from(proto) + seg_len as u32;
    let mut c = !fold(pseudo + sum16(l));
    if !is_tcp && c == 0 {
        c = 0xffff; // RFC 768: a computed zero is sent as all ones
    }
    l[ck_at..ck_at + 2].copy_from_slice(&c.to_be_bytes());
    16 + hdr
}

/// One's-complement sum of big-endian 16-bit words (RFC 1071), not yet folded.
fn sum16(b: &[u8]) -> u32 {
    b.chunks(2).map(|w| u32::from(w[0]) << 8 | u32::from(*w.get(1).unwrap_or(&0))).sum()
}

fn fold(mut s: u32) -> u16 {
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    s as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::TcpHdr;

    #[test]
    fn rfc1071_checksum_of_its_worked_example() {
        // RFC 1071 §3: the bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (folded).
        assert_eq!(fold(sum16(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7])), 0xddf2);
    }

    #[test]
    fn a_sack_ack_has_valid_ip_and_tcp_checksums() {
        let p = Packet {
            size: 56,
            ptype: PType::Ack,
            uid: 7,
            tcp: TcpHdr { ack: 41, nsack: 2, sack: [(44, 46), (48, 49), (0, 0)], ..Default::default() },
            ..Default::default()
        };
        let mut buf = [0u8; MAX_RECORD];
        let n = encode(&p, SimTime(1_500_000_000_123_000), &[0], &mut buf);
        assert_eq!(n, 16 + 20 + 20 + 4 + 16);
        assert_eq!(u32::from_le_bytes(buf[0..4].try_into().unwrap()), 1500);
        assert_eq!(u32::from_le_bytes(buf[4..8].try_into().unwrap()), 123);
        let ip = &buf[16..36];
        assert_eq!(fold(sum16(ip)), 0xffff, "IP header checksum verifies");
        let tcp = &buf[36..n];
        let tcp_len = u16::from_be_bytes([ip[2], ip[3]]) as u32 - 20;
        let pseudo = sum16(&ip[12..20]) + 6 + tcp_len;
        assert_eq!(fold(pseudo + sum16(tcp)), 0xffff, "TCP checksum verifies");
        assert_eq!(u32::from_be_bytes(tcp[8..12].try_into().unwrap()), 41);
        assert_eq!(tcp[13], 0x10);
    }
}
