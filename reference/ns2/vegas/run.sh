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
