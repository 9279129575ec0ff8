//! pcap capture files, one per chosen link direction, so Wireshark and tcpdump read nsim runs
//! (issue 8) and Wireshark's and tcptrace's TCP analysis reads them right (issue 30).
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
//! - ports: 1024 + the agent's index in the run: flow *i*'s source is port 1024 + 2*i*, its
//!   sink 1025 + 2*i*, so every flow has its own port pair;
//! - full TCP (`tcp_full`): sequence and acknowledgement numbers, flags (SYN, ACK, FIN, RST,
//!   ECE, CWR) and the advertised window as the model has them (the window field holds the
//!   window in bytes, at most 65535: no window-scale option is written);
//! - one-way TCP (`tcp`, ns-2's agents number packets, not bytes) is shown as a real stack
//!   would send it ([`OneWay`]): data packet *n* starts at byte *n* × `packet_size` (with
//!   ns-2's SYN, packet 0, taking one sequence number: 1 + (*n* − 1) × `packet_size`); data
//!   segments carry ACK with acknowledgement number 1 (the sink sends no data); the sink's
//!   ACK of packet *k* acknowledges the byte after it, its SACK blocks `[l, r)` become the
//!   byte ranges of those packets, and its ACK of the SYN is a SYN-ACK; window 65535 (ns-2's
//!   one-way agents advertise none); ECE/CWR as set. No segment carries PSH (the model has
//!   no push);
//! - IP total length: TCP: its headers plus the segment's payload (so Wireshark's `Len` is
//!   the payload; ns-2 counts 8 bytes per SACK block, real TCP 8 per block plus 4); other
//!   packets: the packet's wire size (at least its headers). ECN in the TOS field, ID = low
//!   16 bits of the packet uid, TTL 64;
//! - only the headers are captured (`incl_len` < `orig_len`); the TCP/UDP checksums are those
//!   of the full datagram with an all-zero payload, so they are valid.
//!
//! Writing a record copies into a stack buffer: no allocation per packet.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::ids::{LinkId, NodeId};
use crate::packet::flags as tcp_flags;
use crate::packet::{Ecn, PType, Packet, TcpHdr};
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

/// How a one-way TCP flow's packet numbers become byte sequence numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneWay {
    /// Payload bytes of a full segment (the flow's `packet_size`).
    pub mss: u64,
    /// Packet 0 is ns-2's header-only SYN.
    pub syn: bool,
}

impl OneWay {
    /// First byte of data packet `n` (the SYN is byte 0).
    fn byte(self, n: u64) -> u64 {
        match (self.syn, n) {
            (true, 0) => 0,
            (true, n) => 1 + (n - 1) * self.mss,
            (false, n) => n * self.mss,
        }
    }
}

/// Open capture files, indexed by link id (`None`: not captured).
pub struct PcapFiles {
    files: Vec<Option<BufWriter<File>>>,
    /// Per flow: `Some` for one-way TCP (packet numbers), `None` otherwise.
    one_way: Vec<Option<OneWay>>,
    error: Option<io::Error>,
}

impl PcapFiles {
    /// Creates `dir` and one file per chosen link: `(link id, file name)`; `one_way` says per
    /// flow how its TCP numbers map to bytes.
    pub fn create(
        dir: &Path,
        chosen: &[(LinkId, String)],
        n_links: usize,
        one_way: Vec<Option<OneWay>>,
    ) -> io::Result<Self> {
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
        Ok(PcapFiles { files, one_way, error: None })
    }

    /// Packet `p` starts transmission on link `l` at `t`.
    #[inline]
    pub fn departure(&mut self, l: LinkId, t: SimTime, p: &Packet) {
        let Some(Some(w)) = self.files.get_mut(l.idx()) else { return };
        let mut buf = [0u8; MAX_RECORD];
        let one_way = self.one_way.get(p.flow.idx()).copied().flatten();
        let n = encode(p, t, one_way, &mut buf);
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

/// TCP header fields as a capture shows them: (seq, ack, flags, window).
fn tcp_fields(p: &Packet, one_way: Option<OneWay>) -> (u64, u64, u8, u16) {
    let h = &p.tcp;
    let mut f = 0u8;
    for (model, wire) in [
        (tcp_flags::FIN, 0x01),
        (tcp_flags::SYN, 0x02),
        (tcp_flags::RST, 0x04),
        (tcp_flags::ACK, 0x10),
        (tcp_flags::ECE, 0x40),
        (tcp_flags::CWR, 0x80),
    ] {
        if h.flags & model != 0 {
            f |= wire;
        }
    }
    let Some(m) = one_way else {
        let window = if h.rwnd == TcpHdr::NO_RWND { 65535 } else { h.rwnd.min(65535) as u16 };
        return (h.seq, h.ack, f, window);
    };
    if p.ptype == PType::Ack {
        // The sink: its ACK of the SYN (packet 0) is the SYN-ACK that takes its byte 0.
        let syn_ack = m.syn && h.ack == 0;
        let flags = f | 0x10 | if syn_ack { 0x02 } else { 0 };
        (u64::from(!syn_ack), m.byte(h.ack + 1), flags, 65535)
    } else if h.flags & tcp_flags::SYN != 0 {
        (0, 0, f, 65535)
    } else {
        (m.byte(h.seq), 1, f | 0x10, 65535)
    }
}

/// Writes one record (header and synthesised IP/TCP or IP/UDP headers) into `buf`; returns
/// its length. `one_way`: the packet's flow numbers packets (one-way TCP).
pub fn encode(
    p: &Packet,
    t: SimTime,
    one_way: Option<OneWay>,
    buf: &mut [u8; MAX_RECORD],
) -> usize {
    let is_tcp = matches!(p.ptype, PType::Tcp | PType::Ack);
    let nsack = if is_tcp { (p.tcp.nsack as usize).min(3) } else { 0 };
    let l4 = if is_tcp { TCP_HDR + if nsack > 0 { 4 + 8 * nsack } else { 0 } } else { UDP_HDR };
    let hdr = IP_HDR + l4;
    let ip_len =
        if is_tcp { hdr + p.tcp.payload as usize } else { p.size as usize }.clamp(hdr, 65535);
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
    let port = |a: crate::ids::AgentId| (PORT_BASE + a.0 % (65536 - PORT_BASE)) as u16;
    let seg_len = ip_len - IP_HDR;
    let l = &mut buf[16 + IP_HDR..16 + hdr];
    l[0..2].copy_from_slice(&port(p.src_agent).to_be_bytes());
    l[2..4].copy_from_slice(&port(p.dst_agent).to_be_bytes());
    let ck_at = if is_tcp {
        let (seq, ackno, flags, window) = tcp_fields(p, one_way);
        l[4..8].copy_from_slice(&(seq as u32).to_be_bytes());
        l[8..12].copy_from_slice(&(ackno as u32).to_be_bytes());
        l[12] = ((l4 / 4) as u8) << 4;
        l[13] = flags;
        l[14..16].copy_from_slice(&window.to_be_bytes());
        if nsack > 0 {
            let edge = |x: u64| one_way.map_or(x, |m| m.byte(x));
            l[20] = 1;
            l[21] = 1;
            l[22] = 5;
            l[23] = (2 + 8 * nsack) as u8;
            for (i, &(left, right)) in p.tcp.sack[..nsack].iter().enumerate() {
                l[24 + 8 * i..28 + 8 * i].copy_from_slice(&(edge(left) as u32).to_be_bytes());
                l[28 + 8 * i..32 + 8 * i].copy_from_slice(&(edge(right) as u32).to_be_bytes());
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

    #[test]
    fn rfc1071_checksum_of_its_worked_example() {
        // RFC 1071 §3: the bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (folded).
        assert_eq!(fold(sum16(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7])), 0xddf2);
    }

    /// The TCP header of a record: (seq, ack, flags, window, SACK edges).
    fn tcp_of(buf: &[u8], n: usize) -> (u32, u32, u8, u16, Vec<u32>) {
        let tcp = &buf[36..n];
        let word = |i: usize| u32::from_be_bytes(tcp[i..i + 4].try_into().unwrap());
        let edges = (24..tcp.len()).step_by(4).map(word).collect();
        (word(4), word(8), tcp[13], u16::from_be_bytes([tcp[14], tcp[15]]), edges)
    }

    #[test]
    fn a_sack_ack_has_valid_ip_and_tcp_checksums_and_byte_numbers() {
        // One-way SACK sink (no SYN, 1000 B segments): it has packets 0..=41 and 44, 45, 48;
        // the next byte it wants is 42 000 and the blocks are [44 000, 46 000), [48 000, 49 000)
        // (RFC 2018 §3: left edge = first byte, right edge = byte after the block).
        let p = Packet {
            size: 56,
            ptype: PType::Ack,
            uid: 7,
            tcp: TcpHdr {
                ack: 41,
                nsack: 2,
                sack: [(44, 46), (48, 49), (0, 0)],
                ..Default::default()
            },
            ..Default::default()
        };
        let mut buf = [0u8; MAX_RECORD];
        let n = encode(
            &p,
            SimTime(1_500_000_000_123_000),
            Some(OneWay { mss: 1000, syn: false }),
            &mut buf,
        );
        assert_eq!(n, 16 + 20 + 20 + 4 + 16);
        assert_eq!(u32::from_le_bytes(buf[0..4].try_into().unwrap()), 1500);
        assert_eq!(u32::from_le_bytes(buf[4..8].try_into().unwrap()), 123);
        let ip = &buf[16..36];
        assert_eq!(fold(sum16(ip)), 0xffff, "IP header checksum verifies");
        let tcp = &buf[36..n];
        let tcp_len = u16::from_be_bytes([ip[2], ip[3]]) as u32 - 20;
        assert_eq!(tcp_len, 40, "an ACK carries no payload: header and options only");
        let pseudo = sum16(&ip[12..20]) + 6 + tcp_len;
        assert_eq!(fold(pseudo + sum16(tcp)), 0xffff, "TCP checksum verifies");
        let (seq, ack, flags, window, edges) = tcp_of(&buf, n);
        assert_eq!((seq, ack, flags, window), (1, 42_000, 0x10, 65535));
        assert_eq!(edges, [44_000, 46_000, 48_000, 49_000]);
    }

    #[test]
    fn one_way_segments_look_like_a_real_stack_with_the_syn() {
        // ns-2's SYN is packet 0 (header only, byte 0); data packet n starts at byte
        // 1 + (n - 1) * 1000 and acknowledges the sink's SYN-ACK (ack 1, RFC 9293 §3.5).
        let m = Some(OneWay { mss: 1000, syn: true });
        let mut buf = [0u8; MAX_RECORD];
        let seg = |seq: u64, flags: u8, payload: u32| Packet {
            size: 40 + payload,
            ptype: PType::Tcp,
            tcp: TcpHdr { seq, flags, payload, ..Default::default() },
            ..Default::default()
        };
        let n = encode(&seg(0, tcp_flags::SYN, 0), SimTime::ZERO, m, &mut buf);
        let (seq, _, flags, _, _) = tcp_of(&buf, n);
        assert_eq!((seq, flags), (0, 0x02));
        let n = encode(&seg(3, 0, 1000), SimTime::ZERO, m, &mut buf);
        let (seq, ack, flags, _, _) = tcp_of(&buf, n);
        assert_eq!((seq, ack, flags), (2_001, 1, 0x10));
        assert_eq!(u16::from_be_bytes([buf[18], buf[19]]), 1040, "Len 1000");
        // The sink's ACK of the SYN is its SYN-ACK (seq 0); later ACKs start at its byte 1.
        let ack = |k: u64| Packet {
            size: 40,
            ptype: PType::Ack,
            tcp: TcpHdr { ack: k, ..Default::default() },
            ..Default::default()
        };
        let n = encode(&ack(0), SimTime::ZERO, m, &mut buf);
        let (seq, ack_no, flags, _, _) = tcp_of(&buf, n);
        assert_eq!((seq, ack_no, flags), (0, 1, 0x12));
        let n = encode(&ack(3), SimTime::ZERO, m, &mut buf);
        let (seq, ack_no, flags, _, _) = tcp_of(&buf, n);
        assert_eq!((seq, ack_no, flags), (1, 3_001, 0x10));
    }

    #[test]
    fn full_tcp_headers_are_the_models() {
        // A tcp_full data segment with a piggybacked ACK, FIN and a 20 000-byte window.
        let p = Packet {
            size: 540,
            ptype: PType::Tcp,
            tcp: TcpHdr {
                seq: 5_001,
                ack: 301,
                flags: tcp_flags::ACK | tcp_flags::FIN,
                payload: 500,
                rwnd: 20_000,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut buf = [0u8; MAX_RECORD];
        let n = encode(&p, SimTime::ZERO, None, &mut buf);
        let (seq, ack, flags, window, _) = tcp_of(&buf, n);
        assert_eq!((seq, ack, flags, window), (5_001, 301, 0x11, 20_000));
    }
}
