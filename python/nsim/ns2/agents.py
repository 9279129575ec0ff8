"""ns-2 agents and applications as nsim flows: ``Agent/TCP`` (and /Reno, /Newreno, /Sack1,
/Fack, /Vegas) with ``Agent/TCPSink`` (/DelAck, /Sack1, /Sack1/DelAck) is a one-way ``tcp``
transport (docs/models/tcp.md says which ns-2 class each variant follows), two
``Agent/TCP/FullTcp`` (/Newreno, /Tahoe, /Sack) are ``tcp_full`` (docs/models/tcp_full.md); ``Agent/UDP``
with ``Agent/Null`` or ``Agent/LossMonitor`` is ``udp``; ``Agent/TFRC`` with
``Agent/TFRCSink`` is ``tfrc`` with ns-2's sender rules (docs/models/tfrc.md); ``Application/FTP`` is ``bulk``,
``Application/Traffic/CBR`` is ``cbr``, ``/Exponential`` and ``/Pareto`` are ``onoff``
(docs/models/traffic.md)."""

from __future__ import annotations

from typing import Any, Iterable

from .bound import check_unmapped
from .interp import Ns2Error
from .units import flag, number, rate_bps, seconds

#: ns-2 TCP sender class -> nsim variant.
TCP_VARIANTS = {"Agent/TCP": "tahoe", "Agent/TCP/Reno": "reno", "Agent/TCP/Newreno": "newreno",
                "Agent/TCP/Sack1": "sack1", "Agent/TCP/Fack": "fack", "Agent/TCP/Vegas": "vegas"}
#: ns-2 TCP sink class -> (delayed ACKs, SACK).
TCP_SINKS = {"Agent/TCPSink": (False, False), "Agent/TCPSink/DelAck": (True, False),
             "Agent/TCPSink/Sack1": (False, True), "Agent/TCPSink/Sack1/DelAck": (True, True)}
#: ``Agent/SAack`` answers only signalling requests (tcp/saack.cc); data it receives it frees, as a Null.
UDP_SINKS = ("Agent/Null", "Agent/LossMonitor", "Agent/SAack")
APPS = ("Application/FTP", "Application/Traffic/CBR", "Application/Traffic/Exponential", "Application/Traffic/Pareto")


def _known(heritage: list[str], known: Iterable[str]) -> str:
    """The nearest class of ``heritage`` nsim has a model for (a script's own subclass of
    ``Agent/TCP/Reno`` is a Reno), or the object's class if none."""
    return next((c for c in heritage if c in known), heritage[0])

#: Agent/TCP variable -> (nsim transport key, reader).
_TCP_KEYS = {
    "window_": ("window", lambda v: int(number(v, "window_"))),
    "packetSize_": ("packet_size", lambda v: int(number(v, "packetSize_"))),
    "tcpip_base_hdr_size_": ("header_size", lambda v: int(number(v, "tcpip_base_hdr_size_"))),
    "windowInit_": ("initial_window", lambda v: int(number(v, "windowInit_"))),
    "maxburst_": ("maxburst", lambda v: int(number(v, "maxburst_"))),
    "numdupacks_": ("dupthresh", lambda v: int(number(v, "numdupacks_"))),
    "tcpTick_": ("tick", lambda v: seconds(v, "tcpTick_")),
    "minrto_": ("min_rto", lambda v: seconds(v, "minrto_")),
    "rtxcur_init_": ("initial_rto", lambda v: seconds(v, "rtxcur_init_")),
    "maxrto_": ("max_rto", lambda v: seconds(v, "maxrto_")),
    "ecn_": ("ecn", lambda v: number(v, "ecn_") != 0),
    "syn_": ("syn", lambda v: number(v, "syn_") != 0),
    "delay_growth_": ("delay_growth", lambda v: number(v, "delay_growth_") != 0),
    "max_ssthresh_": ("max_ssthresh", lambda v: int(number(v, "max_ssthresh_"))),
    "singledup_": ("limited_transmit", lambda v: number(v, "singledup_") != 0),
    "bugFix_": ("bugfix", lambda v: number(v, "bugFix_") != 0),
    "precisionReduce_": ("whole_packet_reduction", lambda v: number(v, "precisionReduce_") == 0),
}
#: Agent/TCP variables that are state or statistics (read by scripts, never configuration),
#: or ns-2 bookkeeping nsim does not need.
_TCP_STATE = ("seqno_", "t_seqno_", "dupacks_", "ack_", "cwnd_", "awnd_", "rtt_", "srtt_", "rttvar_",
              "backoff_", "maxseq_", "ndatapack_", "ndatabytes_", "nackpack_", "nrexmitbytes_", "nrexmit_",
              "nrexmitpack_", "ncwndcuts_", "ncwndcuts1_", "necnresponses_", "nam_tracevar_",
              "trace_all_oneline_", "print_request_", "debug_", "agent_addr_", "agent_port_",
              "dst_addr_", "dst_port_", "fid_", "class_", "flags_")
_AGENT_IDS = ("fid_", "class_", "flags_", "debug_", "agent_addr_", "agent_port_",
              "dst_addr_", "dst_port_", "sport_", "dport_")


def tcp_transport(sender: list[str], svars: dict[str, str], sink: list[str], kvars: dict[str, str]) -> dict[str, Any]:
    """The ``tcp`` transport table of a TCP sender (class precedence ``sender``, bound
    variables ``svars``) and its sink."""
    cls = _known(sender, TCP_VARIANTS)
    sink_cls = _known(sink, TCP_SINKS)
    if cls not in TCP_VARIANTS:
        raise Ns2Error(f"{cls}: no nsim model of this TCP (supported: {', '.join(TCP_VARIANTS)})")
    if sink_cls not in TCP_SINKS:
        raise Ns2Error(f"{cls} is connected to a {sink[0]}; nsim's one-way TCP needs an Agent/TCPSink"
                       f" ({', '.join(TCP_SINKS)})")
    out: dict[str, Any] = {"kind": "tcp", "variant": TCP_VARIANTS[cls]}
    for var, (key, read) in _TCP_KEYS.items():
        out[key] = read(svars[var])
    ssthresh = int(number(svars["ssthresh_"], "ssthresh_"))
    if ssthresh > 0:
        out["initial_ssthresh"] = ssthresh
    if cls == "Agent/TCP/Newreno":
        out["newreno"] = {"partial_window_deflation": number(svars["partial_window_deflation_"], "") != 0,
                          "reset_timer_first_partial_only": number(svars["newreno_changes1_"], "") != 0}
    if cls == "Agent/TCP/Fack":
        out["fack"] = {"rampdown": number(svars["rampdown_"], "rampdown_") != 0}
    if cls == "Agent/TCP/Vegas":
        out["vegas"] = {"alpha": number(svars["v_alpha_"], ""), "beta": number(svars["v_beta_"], ""),
                        "gamma": number(svars["v_gamma_"], "")}
        del out["syn"]  # ns-2's Vegas ignores syn_: no SYN, packetSize_ on the wire (vegas.ns2_sizes)
    mapped = set(_TCP_KEYS) | {"ssthresh_", "delay_growth_", "partial_window_deflation_", "newreno_changes1_",
                               "rampdown_", "v_alpha_", "v_beta_", "v_gamma_"}
    check_unmapped("the TCP sender", sender, svars, mapped, _TCP_STATE)
    delack, sack = TCP_SINKS[sink_cls]
    out["delayed_ack"] = delack
    out["sack"] = sack
    out["ts_echo_bugfix"] = flag(kvars["ts_echo_bugfix_"], "ts_echo_bugfix_")
    if delack:
        out["delack_interval"] = seconds(kvars["interval_"], "interval_")
    check_unmapped("the TCP sink", sink, kvars, ("interval_", "packetSize_", "ts_echo_bugfix_"), _AGENT_IDS + ("bytes_",))
    if int(number(kvars["packetSize_"], "packetSize_")) != out["header_size"]:
        raise Ns2Error(f"{sink[0]}: ACKs of {kvars['packetSize_']} bytes: nsim's ACKs are `tcpip_base_hdr_size_`"
                       f" ({out['header_size']}) bytes")
    return out


#: ns-2 FullTcp class -> nsim tcp_full variant (docs/models/tcp_full.md).
FULL_VARIANTS = {"Agent/TCP/FullTcp": "reno", "Agent/TCP/FullTcp/Newreno": "newreno",
                 "Agent/TCP/FullTcp/Tahoe": "tahoe", "Agent/TCP/FullTcp/Sack": "sack"}
#: Agent/TCP/FullTcp variable -> (nsim tcp_full key, reader).
_FULL_KEYS = {
    "segsize_": ("mss", lambda v: int(number(v, "segsize_"))),
    "window_": ("window", lambda v: int(number(v, "window_"))),
    "windowInit_": ("initial_window", lambda v: int(number(v, "windowInit_"))),
    "tcpip_base_hdr_size_": ("header_size", lambda v: int(number(v, "tcpip_base_hdr_size_"))),
    "tcprexmtthresh_": ("dupthresh", lambda v: int(number(v, "tcprexmtthresh_"))),
    "maxburst_": ("maxburst", lambda v: int(number(v, "maxburst_"))),
    "interval_": ("delack_interval", lambda v: seconds(v, "interval_")),
    "tcpTick_": ("tick", lambda v: seconds(v, "tcpTick_")),
    "minrto_": ("min_rto", lambda v: seconds(v, "minrto_")),
    "rtxcur_init_": ("initial_rto", lambda v: seconds(v, "rtxcur_init_")),
    "maxrto_": ("max_rto", lambda v: seconds(v, "maxrto_")),
}


def full_tcp_transport(client: list[str], cvars: dict[str, str], server: list[str], svars: dict[str, str]) -> dict[str, Any]:
    """The ``tcp_full`` transport of two connected ``Agent/TCP/FullTcp`` agents (the one
    whose application starts is the client and sends the data: its variables set the
    connection's; the listener's ``segsperack_`` (1 or 2) and ``interval_`` its ACKs)."""
    cls = _known(client, FULL_VARIANTS)
    if cls not in FULL_VARIANTS or _known(server, FULL_VARIANTS) != cls:
        raise Ns2Error(f"{client[0]} connected to {server[0]}: nsim's tcp_full needs two FullTcp agents of one"
                       f" variant ({', '.join(FULL_VARIANTS)})")
    out: dict[str, Any] = {"kind": "tcp_full", "variant": FULL_VARIANTS[cls], "delack_phase": 0.0}
    for var, (key, read) in _FULL_KEYS.items():
        out[key] = read(cvars[var])
    if "recov_maxburst_" in cvars:  # FullTcp/Newreno only
        out["recov_maxburst"] = int(number(cvars["recov_maxburst_"], "recov_maxburst_"))
    out["delack_interval"] = seconds(svars["interval_"], "interval_")
    out["nagle"] = number(cvars["nodelay_"], "nodelay_") == 0
    acks = int(number(svars["segsperack_"], "segsperack_"))
    if acks not in (1, 2):
        raise Ns2Error(f"segsperack_ {acks}: nsim's tcp_full ACKs every segment (1) or every second one (2)")
    out["delayed_ack"] = acks == 2
    out["delack_by_bytes"] = True  # tcp-full.cc need_send: bytes since the last ACK, not full segments
    if number(cvars["segsperack_"], "segsperack_") != 1:
        raise Ns2Error("segsperack_ of the sending FullTcp: only the listener's is modelled (it sends the ACKs)")
    mapped = set(_FULL_KEYS) | {"nodelay_", "segsperack_", "recov_maxburst_"}
    check_unmapped("the FullTcp client", client, cvars, mapped, _TCP_STATE)
    # The listener's iss_ shows only in the seq column of its own packets, which nsim's trace
    # fills with the ACK number instead (docs/guide/ns2-scripts.md, known differences).
    check_unmapped("the FullTcp listener", server, svars, mapped,
                   _TCP_STATE + ("segsize_", "window_", "windowInit_", "iss_"))
    return out


#: Agent/TFRC variable -> (nsim tfrc key, reader); `spec = "ns2"` is ns-2.35's sender.
_TFRC_KEYS = {
    "packetSize_": ("packet_size", lambda v: int(number(v, "packetSize_"))),
    "InitRate_": ("initial_rate", lambda v: 8 * number(v, "InitRate_")),
    "df_": ("rtt_weight", lambda v: number(v, "df_")),
    "ssmult_": ("ssmult", lambda v: number(v, "ssmult_")),
    "ca_": ("oscillation_prevention", lambda v: number(v, "ca_") != 0),
    "tcp_tick_": ("rto_tick", lambda v: seconds(v, "tcp_tick_")),
    "minrto_": ("min_rto", lambda v: seconds(v, "minrto_")),
    "ecn_": ("ecn", lambda v: number(v, "ecn_") != 0),
}
#: Read live by scripts (rate_, ndatapack_, ndatabytes_), or bookkeeping nsim does not need.
_TFRC_STATE = ("rate_", "ndatapack_", "ndatabytes_", "printStatus_", "maxqueue_")


def tfrc_transport(sender: list[str], svars: dict[str, str], sink: list[str], kvars: dict[str, str]) -> dict[str, Any]:
    """The ``tfrc`` transport (``spec = "ns2"``: ns-2.35's sender rules, docs/models/tfrc.md)
    of an ``Agent/TFRC`` and its ``Agent/TFRCSink``."""
    if "Agent/TFRCSink" not in sink:
        raise Ns2Error(f"Agent/TFRC is connected to a {sink[0]}; nsim's TFRC needs an Agent/TFRCSink")
    out: dict[str, Any] = {"kind": "tfrc", "spec": "ns2"}
    for var, (key, read) in _TFRC_KEYS.items():
        out[key] = read(svars[var])
    out["header_size"] = int(number(svars["headersize_"], "headersize_")) if flag(svars["useHeaders_"], "useHeaders_") else 0
    check_unmapped("the TFRC sender", sender, svars, set(_TFRC_KEYS) | {"headersize_", "useHeaders_"},
                   _AGENT_IDS + _TFRC_STATE)
    out["feedback_size"] = int(number(kvars["packetSize_"], "packetSize_"))
    out["ndupack"] = int(number(kvars["numPkts_"], "numPkts_"))
    out["history_discounting"] = number(kvars["discount_"], "discount_") != 0
    check_unmapped("the TFRC sink", sink, kvars, ("packetSize_", "numPkts_", "discount_"),
                   _AGENT_IDS + ("bytes_", "printLoss_"))
    return out


def udp_transport(sender: list[str], svars: dict[str, str], sink: list[str], kvars: dict[str, str]) -> dict[str, Any]:
    """The ``udp`` transport of an ``Agent/UDP`` and its ``Agent/Null`` / ``Agent/LossMonitor``."""
    if _known(sink, UDP_SINKS) not in UDP_SINKS:
        raise Ns2Error(f"Agent/UDP is connected to a {sink[0]}; nsim's UDP needs {' or '.join(UDP_SINKS)}")
    check_unmapped("the UDP agent", sender, svars, ("packetSize_",), _AGENT_IDS)
    check_unmapped("the UDP sink", sink, kvars, (), _AGENT_IDS + ("nlost_", "npkts_", "bytes_", "lastPktTime_",
                                                                  "expected_"))
    return {"kind": "udp"}


def application(app: list[str], avars: dict[str, str], agent: list[str], agvars: dict[str, str]) -> dict[str, Any]:
    """The ``app`` table of an ns-2 application attached to an agent."""
    cls = _known(app, APPS)
    is_tcp = "Agent/TCP" in agent
    if cls == "Application/FTP":
        if not is_tcp and "Agent/TFRC" not in agent:
            raise Ns2Error(f"Application/FTP runs over a TCP or TFRC agent, not {agent[0]}")
        check_unmapped("the FTP application", app, avars, ())
        return {"kind": "bulk"}
    size = int(number(avars.get("packetSize_", "0"), "packetSize_"))
    if not is_tcp and size > int(number(agvars["packetSize_"], "packetSize_")):
        raise Ns2Error(f"{cls}: packetSize_ {size} above the UDP agent's packetSize_ {agvars['packetSize_']}:"
                       " ns-2 would split each message into fragments; nsim does not")
    if cls == "Application/Traffic/CBR":
        check_unmapped("the CBR application", app, avars, ("rate_", "interval_", "packetSize_", "random_"))
        out: dict[str, Any] = {"kind": "cbr", "size": size}
        if number(avars["maxpkts_"], "maxpkts_") != 268435456:
            raise Ns2Error("Application/Traffic/CBR: maxpkts_ (a packet count limit) has no nsim model")
        # ns-2's CBR sends every packetSize_ * 8 / rate_ (setting interval_ sets rate_).
        out["interval"] = size * 8 / rate_bps(avars["rate_"], "rate_")
        if number(avars["random_"], "random_") != 0:
            out["jitter"] = 1
        return out
    if cls in ("Application/Traffic/Exponential", "Application/Traffic/Pareto"):
        mapped = ("rate_", "packetSize_", "burst_time_", "idle_time_", "shape_")
        check_unmapped("the on/off application", app, avars, mapped)
        dist = "exponential" if cls.endswith("Exponential") else "pareto"
        on = {"dist": dist, "mean": seconds(avars["burst_time_"], "burst_time_")}
        off = {"dist": dist, "mean": seconds(avars["idle_time_"], "idle_time_")}
        if dist == "pareto":
            on["shape"] = off["shape"] = number(avars["shape_"], "shape_")
        return {"kind": "onoff", "rate": rate_bps(avars["rate_"], "rate_"), "size": size, "on": on, "off": off}
    raise Ns2Error(f"{cls}: no nsim model of this application (supported: Application/FTP,"
                   " Application/Traffic/CBR, /Exponential, /Pareto)")
