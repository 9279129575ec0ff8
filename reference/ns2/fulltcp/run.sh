#!/bin/sh
# Run the FullTcp reference runs into a raw directory, then reduce them here.
# usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
for v in FullTcp Newreno Tahoe Sack; do
  lv=$(echo $v | tr 'A-Z' 'a-z')
  ns "$HERE/scenario.tcl" $v "100000" "$RAW/${lv}_overflow" 6.0 2>/dev/null
  ns "$HERE/scenario.tcl" $v "16" "$RAW/${lv}_1drop" 6.0 2>/dev/null
  ns "$HERE/scenario.tcl" $v "16 30" "$RAW/${lv}_2drop" 6.0 2>/dev/null
done
# FullTcp/Sack only: 3 and 4 losses in one window (data 14001, (24001,) 26001, 28001: the
# Fall & Floyd 3- and 4-drop lists shifted by the two handshake packets), and 2 losses in
# separate windows (data 8001 in slow start, 57001 after the first recovery)
ns "$HERE/scenario.tcl" Sack "16 28 30" "$RAW/sack_3drop" 6.0 2>/dev/null
ns "$HERE/scenario.tcl" Sack "16 26 28 30" "$RAW/sack_4drop" 6.0 2>/dev/null
ns "$HERE/scenario.tcl" Sack "10 60" "$RAW/sack_sep" 6.0 2>/dev/null
# FullTcp/Newreno only: a loss, then three losses in the recovery's retransmissions and new
# data, so a timeout is followed by partial ACKs (ns-2's recov_maxburst_ and the fast
# retransmit after a timeout that last_cwnd_action_ allows)
ns "$HERE/scenario.tcl" Newreno "16 30 31 32" "$RAW/newreno_timeout" 6.0 2>/dev/null
# Delayed ACKs at the receiver (segsperack_ 2), Reno, one drop
ns "$HERE/scenario.tcl" FullTcp "16" "$RAW/fulltcp_delack_1drop" 6.0 delack 2>/dev/null
# test-suite-full / sack-full set-up (scenario.tcl ... net0): window 100, mss 536,
# 8Mb 5ms + 800Kb 100ms, DropTail 6, no drop list
for v in FullTcp Newreno Tahoe Sack; do
  lv=$(echo $v | tr 'A-Z' 'a-z')
  ns "$HERE/scenario.tcl" $v "" "$RAW/suite_full_${lv}" 6.0 - net0
done
for v in FullTcp Sack; do
  lv=$(echo $v | tr 'A-Z' 'a-z')
  ns "$HERE/scenario.tcl" $v "" "$RAW/suite_delack_${lv}" 6.0 delack net0
done
python3 "$HERE/reduce.py" "$RAW" "$HERE"
