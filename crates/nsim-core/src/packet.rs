//! Packets: fixed-size plain data held in a pool and addressed by [`PacketId`].
//!
//! A packet carries its size on the wire, not payload bytes (ns-2 semantics). The pool reuses
//! freed slots, so steady-state runs allocate nothing per packet (STYLE.md item 10).

use crate::ids::{AgentId, FlowId, NodeId};
use crate::time::SimTime;

/// Index of a live packet in the [`PacketPool`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PacketId(pub u32);

/// Packet type as ns-2 names it in traces (`cbr`, `tcp`, `ack`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PType {
    #[default]
    Udp,
    Cbr,
    Exp,
    Pareto,
    Tcp,
    Ack,
    /// TFRC data (ns-2 `tcpFriend`).
    Tfrc,
    /// TFRC receiver feedback (ns-2 `tcpFriendCtl`).
    TfrcCtl,
    /// STP data (SSCOP SD PDU).
    Stp,
    /// STP POLL from the sender (a status request, no data).
    StpPoll,
    /// STP STAT or USTAT from the receiver.
    StpStat,
    /// An application request travelling against the data (a web client's page request to
    /// its server over the one-way TCP agents; ns-2 `PT_HTTP`). Its `tcp.seq` numbers it.
    Request,
    /// A distance-vector routing advertisement (ns-2 `rtProtoDV`, net/routing/dv.rs).
    RtProtoDv,
}

impl PType {
    /// The name ns-2 prints in column 5 of a trace line.
    pub fn ns2_name(self) -> &'static str {
        match self {
            PType::Udp => "udp",
            PType::Cbr => "cbr",
            PType::Exp => "exp",
            PType::Pareto => "pareto",
            PType::Tcp => "tcp",
            PType::Ack => "ack",
            PType::Tfrc => "tcpFriend",
            PType::TfrcCtl => "tcpFriendCtl",
            PType::Stp => "stp",
            PType::StpPoll => "stp_poll",
            PType::StpStat => "stp_stat",
            PType::Request => "http",
            PType::RtProtoDv => "rtProtoDV",
        }
    }

    /// True for packets that carry a flow's data (counted as the flow's sent/delivered);
    /// false for acknowledgements and other control packets (counted as `ack_*`).
    pub fn is_data(self) -> bool {
        !matches!(
            self,
            PType::Ack | PType::TfrcCtl | PType::StpPoll | PType::StpStat | PType::Request
        )
    }
}

/// ECN codepoint (RFC 3168 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct,
    Ect,
    Ce,
}

/// TCP header flag bits used in [`TcpHdr::flags`].
pub mod flags {
    /// ECN-Echo (RFC 3168 §6.1.3), set by the sink after a CE mark.
    pub const ECE: u8 = 1;
    /// Congestion Window Reduced (RFC 3168 §6.1.2), set by the sender after reacting.
    pub const CWR: u8 = 2;
    /// ns-2's one-way SYN (header-only sequence 0); the full TCP's SYN (RFC 793).
    pub const SYN: u8 = 4;
    /// Full TCP only (RFC 793 §3.1): no more data from the sender.
    pub const FIN: u8 = 8;
    /// Full TCP only: reset the connection.
    pub const RST: u8 = 16;
    /// Full TCP only: the acknowledgment field is significant.
    pub const ACK: u8 = 32;
    /// Full TCP only, on a SYN: the sender offers RFC 7323 window scaling.
    pub const WSCALE: u8 = 64;
    /// Host scheduler (§3.6-3.7, Noureddine 2002 §4.6.1): the marker says this
    /// segment MUST keep its mark; the scheduler waits for a token rather than remark it.
    pub const MUST_KEEP: u8 = 128;
}

/// TCP header fields nsim models. Sequence numbers are in the unit the sender core chooses
/// (ns-2 one-way TCP counts packets); `sack` holds up to 3 blocks (RFC 2018 §3), most recent
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpHdr {
    pub seq: u64,
    pub ack: u64,
    pub flags: u8,
    pub nsack: u8,
    /// Sent by a full-TCP listener: ns-2 types every packet of a `FullTcp` that called
    /// `listen` as `ack` (`FullTcpAgent::listen` sets `type_ = PT_ACK`), its data segments
    /// too, and its trace prints them so; nsim keeps `ptype` Tcp for data (it is data to every
    /// model) and the trace reads this. Sits in padding: the header is no larger.
    pub ns2_ack_type: bool,
    /// The one-way sender's connection number (wrapping): each `new_connection` of its
    /// application opens the next, and the sink's ACK carries the number of the segment it
    /// answers, so the sender ignores what an earlier connection's late segments draw (in
    /// ns-2 each connection is a fresh agent pair, and those ACKs reach the old agent). Sits
    /// in padding: the header is no larger.
    pub conn: u8,
    pub sack: [(u64, u64); 3],
    /// Data segments: their send time (like a TSval); ACKs: the echoed send time of the
    /// segment that triggered them (like a TSecr), for RTT samples.
    pub ts_echo: SimTime,
    /// Payload bytes in this segment (wire size minus headers).
    pub payload: u32,
    /// Advertised receive window in bytes (RFC 793 §3.1 "Window", already scaled as RFC 7323
    /// §2.3 describes). [`TcpHdr::NO_RWND`] when the sender advertises none, as ns-2's one-way
    /// agents never do; 0 is a real zero window.
    pub rwnd: u32,
}

impl TcpHdr {
    /// `rwnd` of a segment that advertises no window (no limit on the peer's sender).
    pub const NO_RWND: u32 = u32::MAX;
    /// All fields zero except `rwnd`, which advertises nothing.
    pub const EMPTY: TcpHdr = TcpHdr {
        seq: 0,
        ack: 0,
        flags: 0,
        nsack: 0,
        ns2_ack_type: false,
        conn: 0,
        sack: [(0, 0); 3],
        ts_echo: SimTime::ZERO,
        payload: 0,
        rwnd: Self::NO_RWND,
    };
}

impl Default for TcpHdr {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// One packet. `Copy` and fixed-size: no heap data.
///
/// Laid out by hand (`repr(C)`): the fields every hop reads (`dst` to route, `size` to queue
/// and serialize, `flow`, `ptype` and `prio` to count a drop or classify) fill the first 16
/// bytes and the link's wire list (`wire_at`, `wire_next`) the next 16, and those 32 bytes
/// never straddle a cache line in the pool (slots are 160 bytes, 32-byte steps); the headers
/// the agents read come after.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Packet {
    pub dst: NodeId,
    /// Bytes on the wire, headers included.
    pub size: u32,
    pub flow: FlowId,
    pub ptype: PType,
    /// Priority / drop precedence / DSCP class, read by classifiers and markers.
    pub prio: u8,
    /// Application tag, read by classifiers.
    pub tag: u16,
    /// While on a link's wire: when it reaches the far end ([`crate::net::wire::Wire`]).
    pub wire_at: SimTime,
    /// While on a link's wire: the packet behind it.
    pub wire_next: PacketId,
    pub src: NodeId,
    pub src_agent: AgentId,
    pub dst_agent: AgentId,
    pub ecn: Ecn,
    /// Unique id over the whole run (ns-2 trace column 12).
    pub uid: u64,
    /// When the source created it (one-way delay is measured from here).
    pub created: SimTime,
    /// Sequence number for traces (UDP: per-flow packet count; TCP: `tcp.seq`).
    pub seq: u64,
    pub tcp: TcpHdr,
}

/// Arena of packets with a free list.
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    /// Which slots hold a live packet: catches a double free in debug builds (tests), and is
    /// not kept in release builds, where it would be one more line touched per packet.
    #[cfg(debug_assertions)]
    in_use: Vec<bool>,
    free: Vec<u32>,
    next_uid: u64,
}

impl PacketPool {
    /// Stores `p` (assigning its `uid`) and returns its id.
    pub fn alloc(&mut self, mut p: Packet) -> PacketId {
        p.uid = self.next_uid;
        self.next_uid += 1;
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = p;
            #[cfg(debug_assertions)]
            {
                self.in_use[i as usize] = true;
            }
            PacketId(i)
        } else {
            self.slots.push(p);
            #[cfg(debug_assertions)]
            self.in_use.push(true);
            PacketId((self.slots.len() - 1) as u32)
        }
    }

    pub fn free(&mut self, id: PacketId) {
        #[cfg(debug_assertions)]
        {
            assert!(self.in_use[id.0 as usize], "packet slot {} freed twice", id.0);
            self.in_use[id.0 as usize] = false;
        }
        self.free.push(id.0);
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id.0 as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id.0 as usize]
    }

    /// Packets created so far.
    pub fn created(&self) -> u64 {
        self.next_uid
    }

    /// Packets currently alive (created and not yet freed).
    pub fn live(&self) -> u64 {
        (self.slots.len() - self.free.len()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-hop fields stay in the first 16 bytes and the wire list in the next 16, and the
    /// slot size keeps those 32 bytes in one cache line (see [`Packet`]).
    #[test]
    fn per_hop_and_wire_fields_share_one_cache_line() {
        use std::mem::{offset_of, size_of};
        let ends = [
            offset_of!(Packet, dst) + 4,
            offset_of!(Packet, size) + 4,
            offset_of!(Packet, flow) + 4,
            offset_of!(Packet, ptype) + 1,
            offset_of!(Packet, prio) + 1,
        ];
        assert!(ends.iter().all(|&e| e <= 16), "{ends:?}");
        let wire = [offset_of!(Packet, wire_at) + 8, offset_of!(Packet, wire_next) + 4];
        assert!(wire.iter().all(|&e| e <= 32), "{wire:?}");
        assert_eq!(size_of::<Packet>() % 32, 0);
    }

    #[test]
    #[should_panic(expected = "freed twice")]
    fn a_double_free_is_caught() {
        let mut pool = PacketPool::default();
        let a = pool.alloc(Packet::default());
        pool.free(a);
        pool.free(a);
    }

    #[test]
    fn freed_slots_are_reused_and_uids_keep_growing() {
        let mut pool = PacketPool::default();
        let a = pool.alloc(Packet { size: 100, ..Default::default() });
        let b = pool.alloc(Packet { size: 200, ..Default::default() });
        pool.free(a);
        let c = pool.alloc(Packet { size: 300, ..Default::default() });
        assert_eq!(c, a);
        assert_eq!(pool.get(c).uid, 2);
        assert_eq!(pool.get(b).size, 200);
        assert_eq!(pool.live(), 2);
        assert_eq!(pool.created(), 3);
    }
}
