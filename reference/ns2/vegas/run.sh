#!/bin/sh
# Re-creates one_flow_cwnd.csv and two_flow_cwnd.csv with ns-2.35 (/usr/bin/ns).
# Columns: time (s), flow (0-based, = start order), cwnd (packets); one row per cwnd_ change.
set -e
cd "$(dirname "$0")"
for n in 1 2; do
  ns scenario.tcl $n
  name=$([ $n = 1 ] && echo one_flow || echo two_flow)
  # cwnd.tr columns: time, src node, src port, dst node, dst port, var, value; sources are
  # nodes 2, 4, ... (r1 = 0, r2 = 1, then s_i, d_i pairs).
  awk 'BEGIN { print "time,flow,cwnd" } { printf "%s,%d,%s\n", $1 + 0, ($2 - 2) / 2, $7 }' cwnd.tr > ${name}_cwnd.csv
  rm cwnd.tr
done
# Loss recovery (drops.tcl, Fall & Floyd path, 6 s): drop lists by name; see README.md.
# <name>.csv: bottleneck r1->k1 data events and ACKs received at s1 (columns of
# ../fall_floyd/*.csv); <name>_cwnd.csv: time, cwnd, ssthresh after every change of either.
# delack_3drop: 14 16 18 with a delayed-ACK sink (TCPSink/DelAck), 10 s.
for run in "overflow:" "1drop:14" "2drop:14 16" "3drop:14 16 18" "lost_rtx:14 20" "lost_worried_rtx:14 16 24" "delack_3drop:14 16 18"; do
  name=${run%%:*}; dl=${run#*:}
  case $name in delack_*) args="10.0 TCPSink/DelAck";; *) args="6.0";; esac
  ns drops.tcl "$dl" raw $args 2>/dev/null
  awk 'BEGIN { print "event,time,from,to,type,size,seq,flags,pkt_id" }
       ($3 == 1 && $4 == 2 && $5 == "tcp") || ($3 == 1 && $4 == 0 && $5 == "ack" && $1 == "r") {
         printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6, $11, $7, $12 }' raw.tr > $name.csv
  awk 'BEGIN { print "time,cwnd,ssthresh"; c = ""; s = "" }
       { if ($6 == "cwnd_") c = $7; else s = $7; printf "%s,%s,%s\n", $1 + 0, c, s }' raw.cw > ${name}_cwnd.csv
  rm raw.tr raw.cw
done
