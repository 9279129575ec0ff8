"""The ns-2 classes a script can create under nsim, with ns-2.35's class defaults of their
bound variables (values from ns-2.35 ``tcl/lib/ns-default.tcl``; facts, not its code).

A script reads and sets these as in ns-2 (``Agent/TCP set window_ 40``, ``$tcp set
packetSize_ 552``). When nsim builds the scenario, a variable it maps becomes the model's
parameter; a variable it does not map must still hold its ns-2 default, otherwise the run
stops naming it (:mod:`nsim.ns2.agents`): nothing the script sets is dropped silently.
"""

from __future__ import annotations

#: class -> (superclasses, {variable: ns-2.35 default}). Order matters: a class after its
#: superclasses.
CLASSES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "Simulator": ((), {}),
    "Node": ((), {"multiPath_": "0"}),
    "Link": ((), {"bandwidth_": "1.5Mb", "delay_": "100ms"}),
    "Queue": ((), {"limit_": "50", "blocked_": "false", "unblock_on_resume_": "true",
                   "interleave_": "false", "acksfirst_": "false", "ackfromfront_": "false",
                   "debug_": "false", "util_weight_": "0.8", "util_check_intv_": "0.2", "util_records_": "5"}),
    "Queue/DropTail": (("Queue",), {"drop_front_": "false", "summarystats_": "false",
                                    "queue_in_bytes_": "false", "mean_pktsize_": "500"}),
    "Queue/RED": (("Queue",), {
        "bytes_": "true", "queue_in_bytes_": "true", "thresh_": "0", "maxthresh_": "0",
        "thresh_queue_": "50", "maxthresh_queue_": "50", "mean_pktsize_": "500",
        "idle_pktsize_": "100", "q_weight_": "-1", "wait_": "true", "linterm_": "10",
        "mark_p_": "0.1", "use_mark_p_": "true", "setbit_": "false", "gentle_": "true",
        "drop_tail_": "true", "drop_front_": "false", "drop_rand_": "false", "doubleq_": "false",
        "ns1_compat_": "false", "dqthresh_": "50", "ave_": "0.0", "prob1_": "0.0", "curq_": "0",
        "cur_max_p_": "0", "summarystats_": "false", "alpha_": "0.01", "beta_": "0.9",
        "adaptive_": "0", "interval_": "0.5", "targetdelay_": "0.005", "top_": "0.5",
        "bottom_": "0", "cautious_": "0", "feng_adaptive_": "0"}),
    "Queue/DRR": (("Queue",), {"buckets_": "10", "blimit_": "25000", "quantum_": "250", "mask_": "0"}),
    "Agent": ((), {"fid_": "0", "prio_": "0", "agent_addr_": "-1", "agent_port_": "-1",
                   "dst_addr_": "-1", "dst_port_": "-1", "flags_": "0", "ttl_": "32",
                   "debug_": "false", "class_": "0"}),
    "Agent/UDP": (("Agent",), {"packetSize_": "1000"}),
    "Agent/TFRC": (("Agent",), {
        "rate_": "0", "ndatapack_": "0", "ndatabytes_": "0", "true_loss_rate_": "0.0", "srtt_init_": "0",
        "rttvar_init_": "12", "rtxcur_init_": "6.0", "rttvar_exp_": "2", "T_SRTT_BITS": "3",
        "T_RTTVAR_BITS": "2", "voip_": "0", "voip_max_pkt_rate_": "100", "fsize_": "1460",
        "headersize_": "32", "rate_init_option_": "2", "slow_increase_": "1", "maxHeavyRounds_": "0",
        "conservative_": "0", "scmult_": "1.5", "oldCode_": "false", "packetSize_": "1000", "df_": "0.95",
        "tcp_tick_": "0.1", "InitRate_": "300", "overhead_": "0", "ssmult_": "2", "bval_": "1", "ca_": "1",
        "printStatus_": "0", "ecn_": "0", "minrto_": "0.0", "SndrType_": "0", "maxqueue_": "MAXSEQ",
        "rate_init_": "2", "useHeaders_": "true", "idleFix_": "true"}),
    "Agent/TFRCSink": (("Agent",), {
        "packetSize_": "40", "InitHistorySize_": "100000", "NumFeedback_": "1", "AdjustHistoryAfterSS_": "1",
        "NumSamples_": "-1", "discount_": "1", "minDiscountRatio_": "0.5", "printLoss_": "0", "smooth_": "1",
        "ShortIntervals_": "0", "ShortRtts_": "2", "minlc_": "4", "algo_": "1", "maxint_": "1000",
        "history_": "0.75", "PreciseLoss_": "1", "numPkts_": "1", "bytes_": "0"}),
    "Agent/Null": (("Agent",), {"sport_": "0", "dport_": "0"}),
    "Agent/SAack": (("Agent",), {}),
    "TBF": ((), {"rate_": "64k", "bucket_": "1024", "qlen_": "0"}),
    "Agent/LossMonitor": (("Agent",), {"nlost_": "0", "npkts_": "0", "bytes_": "0",
                                       "lastPktTime_": "0", "expected_": "0"}),
    "Agent/TCP": (("Agent",), {
        "seqno_": "0", "t_seqno_": "0", "maxburst_": "0", "aggressive_maxburst_": "1",
        "maxcwnd_": "0", "numdupacks_": "3", "numdupacksFrac_": "-1", "exitFastRetrans_": "true",
        "window_": "20", "windowInit_": "2", "windowInitOption_": "1", "syn_": "true",
        "max_connects_": "-1", "windowOption_": "1", "windowConstant_": "4",
        "windowThresh_": "0.002", "decrease_num_": "0.5", "increase_num_": "1.0",
        "k_parameter_": "0.0", "l_parameter_": "1.0", "overhead_": "0", "ecn_": "0",
        "old_ecn_": "0", "bugfix_ss_": "1", "packetSize_": "1000", "tcpip_base_hdr_size_": "40",
        "ts_option_size_": "10", "bugFix_": "true", "bugFix_ack_": "false", "bugFix_ts_": "false",
        "lessCareful_": "false", "timestamps_": "false", "ts_resetRTO_": "false",
        "slow_start_restart_": "true", "restart_bugfix_": "true", "tcpTick_": "0.01",
        "maxrto_": "60", "minrto_": "0.2", "srtt_init_": "0", "rttvar_init_": "12",
        "rtxcur_init_": "3.0", "T_SRTT_BITS": "3", "T_RTTVAR_BITS": "2", "rttvar_exp_": "2",
        "updated_rttvar_": "true", "timerfix_": "true", "rfc2988_": "true", "singledup_": "1",
        "LimTransmitFix_": "false", "precisionReduce_": "true", "oldCode_": "false",
        "useHeaders_": "true", "noFastRetrans_": "false", "partial_ack_": "false",
        "dupacks_": "0", "ack_": "0", "cwnd_": "0", "awnd_": "0", "ssthresh_": "0", "rtt_": "0",
        "srtt_": "0", "rttvar_": "0", "backoff_": "0", "maxseq_": "0", "ndatapack_": "0",
        "ndatabytes_": "0", "nackpack_": "0", "nrexmitbytes_": "0", "nrexmit_": "0",
        "nrexmitpack_": "0", "ncwndcuts_": "0", "ncwndcuts1_": "0", "necnresponses_": "0",
        "delay_growth_": "true", "max_ssthresh_": "0", "low_window_": "38",
        "high_window_": "83000", "high_p_": "0.0000001", "high_decrease_": "0.1",
        "nam_tracevar_": "false", "trace_all_oneline_": "false", "QOption_": "0",
        "EnblRTTCtr_": "0", "control_increase_": "0", "CoarseTimer_": "0", "frto_enabled_": "0",
        "sfrto_enabled_": "0", "spurious_response_": "1", "SetCWRonRetransmit_": "true",
        "eln_": "0", "eln_rxmit_thresh_": "1", "cwnd_range_": "0", "qs_enabled_": "false",
        "tcp_qs_recovery_": "true", "rate_request_": "0", "qs_request_mode_": "1",
        "qs_rtt_": "50", "qs_thresh_": "4", "print_request_": "false"}),
    "Agent/TCP/Reno": (("Agent/TCP",), {}),
    "Agent/TCP/Newreno": (("Agent/TCP",), {"newreno_changes_": "0", "newreno_changes1_": "1",
                                           "partial_window_deflation_": "1",
                                           "exit_recovery_fix_": "0"}),
    "Agent/TCP/Sack1": (("Agent/TCP",), {}),
    "Agent/TCP/Fack": (("Agent/TCP",), {"ss-div4_": "false", "rampdown_": "false"}),
    "Agent/TCP/Vegas": (("Agent/TCP",), {"v_alpha_": "1", "v_beta_": "3", "v_gamma_": "1",
                                         "v_rtt_": "0"}),
    "Agent/TCP/FullTcp": (("Agent/TCP",), {
        "segsperack_": "1", "spa_thresh_": "0", "segsize_": "536", "tcprexmtthresh_": "3", "iss_": "0",
        "nodelay_": "false", "data_on_syn_": "false", "dupseg_fix_": "true", "dupack_reset_": "false",
        "interval_": "0.1", "close_on_empty_": "false", "signal_on_empty_": "false", "ts_option_size_": "10",
        "reno_fastrecov_": "true", "pipectrl_": "false", "open_cwnd_on_pack_": "true", "halfclose_": "false",
        "nopredict_": "false", "ecn_syn_": "false", "ecn_syn_wait_": "0", "debug_": "false"}),
    "Agent/TCP/FullTcp/Newreno": (("Agent/TCP/FullTcp",), {"recov_maxburst_": "2"}),
    "Agent/TCP/FullTcp/Tahoe": (("Agent/TCP/FullTcp",), {}),
    "Agent/TCP/FullTcp/Sack": (("Agent/TCP/FullTcp",), {}),
    "Agent/TCPSink": (("Agent",), {"sport_": "0", "dport_": "0", "packetSize_": "40",
                                   "maxSackBlocks_": "3", "ts_echo_bugfix_": "true",
                                   "ts_echo_rfc1323_": "false", "generateDSacks_": "false",
                                   "qs_enabled_": "false", "RFC2581_immediate_ack_": "true",
                                   "SYN_immediate_ack_": "true", "ecn_syn_": "false",
                                   "bytes_": "0"}),
    "Agent/TCPSink/DelAck": (("Agent/TCPSink",), {"interval_": "100ms"}),
    "Agent/TCPSink/Sack1": (("Agent/TCPSink",), {}),
    "Agent/TCPSink/Sack1/DelAck": (("Agent/TCPSink/Sack1",), {"interval_": "100ms"}),
    "Trace": ((), {"src_": "-1", "dst_": "-1", "callback_": "0", "show_tcphdr_": "0", "show_sctphdr_": "0",
                   "debug_": "false"}),
    "QueueMonitor": ((), {"size_": "0", "pkts_": "0", "parrivals_": "0", "barrivals_": "0",
                          "pdepartures_": "0", "bdepartures_": "0", "pdrops_": "0", "bdrops_": "0"}),
    "Integrator": ((), {"lastx_": "0", "lasty_": "0", "sum_": "0"}),
    "ErrorModel": ((), {"enable_": "1", "markecn_": "false", "delay_pkt_": "false", "delay_": "0",
                        "rate_": "0", "bandwidth_": "2Mb", "debug_": "false"}),
    "ErrorModel/List": (("ErrorModel",), {}),
    "ErrorModel/Periodic": (("ErrorModel",), {"period_": "1.0", "offset_": "0.0", "burstlen_": "0.0",
                                              "default_drop_": "0"}),
    "ErrorModule": ((), {"debug_": "false"}),
    "Application": ((), {}),
    "Application/FTP": (("Application",), {}),
    "Application/Traffic": (("Application",), {}),
    "Application/Traffic/CBR": (("Application/Traffic",), {
        "rate_": "448Kb", "packetSize_": "210", "random_": "0", "maxpkts_": "268435456",
        "interval_": "0.00375"}),
    "Application/Traffic/Exponential": (("Application/Traffic",), {
        "burst_time_": ".5", "idle_time_": ".5", "rate_": "64Kb", "packetSize_": "210"}),
    "Application/Traffic/Pareto": (("Application/Traffic",), {
        "burst_time_": "500ms", "idle_time_": "500ms", "rate_": "64Kb", "packetSize_": "210",
        "shape_": "1.5"}),
}


def tcl_declarations(classes: dict[str, tuple[tuple[str, ...], dict[str, str]]] | None = None) -> str:
    """Tcl text declaring ``classes`` (default :data:`CLASSES`) with the OTcl layer (``Class``
    and class ``set``)."""
    lines = []
    for cls, (supers, variables) in (CLASSES if classes is None else classes).items():
        sup = f" -superclass {{{' '.join(supers)}}}" if supers else ""
        lines.append(f"Class {cls}{sup}")
        lines.extend(f"{cls} set {var} {{{val}}}" for var, val in variables.items())
        lines.append(f"set ::otcl::bound({cls}) {{{' '.join(variables)}}}")
    return "\n".join(lines)
