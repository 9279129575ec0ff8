#!/usr/bin/env bash
# Regenerates whatif.csv from ns-2.35: what the thesis' (unstated) setup could have changed, one
# mechanism at a time, on NewReno (fack_*: Fack) at 17 calls without start jitter (the thesis'
# setup), Drop-Tail and RED (q_weight_ 0.002), seeds 1-3. Each label is Tcl run by ch4.tcl
# before the topology:
#   baseline      ns-2.35 defaults (as ch4.csv)
#   newreno_2002  Newreno newreno_changes1_ 0, partial_window_deflation_ 0 (1 from 2003/05/05)
#   timers_2002   minrto_ 0 (0.2 from 2004/10/14), rtxcur_init_ 6 (3 from 2006/01/21)
#   ns226         both of the above: the TCP defaults of ns-2.26 (2003) as dated in ns-default.tcl
#   window_1000   window_ 1000: no receiver-window cap (if the thesis raised window_)
#   cbr_phase     each call starts at U[0, 8 ms): calls out of phase instead of all at 0
#   calls16       16 calls instead of 17 (the load is inferred)
#   cbr_phase_1ms each call starts at U[0, 1 ms): calls nearly in phase
#   cbr_random    the calls' CBR with random_ 1 (each gap 8 ms x (1 + U(-0.5, 0.5))): out of phase
#   fack_ts_echo  Fack, sinks with ts_echo_bugfix_ false (echo the arriving segment's timestamp,
#                 as before 2003/08/13 and as nsim's sink; FACK takes an RTT sample from it)
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A tcl=(
  [baseline]=""
  [newreno_2002]="Agent/TCP/Newreno set newreno_changes1_ 0; Agent/TCP/Newreno set partial_window_deflation_ 0"
  [timers_2002]="Agent/TCP set minrto_ 0; Agent/TCP set rtxcur_init_ 6"
  [ns226]="Agent/TCP/Newreno set newreno_changes1_ 0; Agent/TCP/Newreno set partial_window_deflation_ 0; Agent/TCP set minrto_ 0; Agent/TCP set rtxcur_init_ 6"
  [window_1000]="set be_window 1000"
  [cbr_phase]="set cbr_phase 0.008"
  [calls16]=""
  [cbr_phase_1ms]="set cbr_phase 0.001"
  [cbr_random]="Application/Traffic/CBR set random_ 1"
  [fack_ts_echo]="Agent/TCPSink set ts_echo_bugfix_ false; Agent/TCPSink/Sack1 set ts_echo_bugfix_ false"
)
echo "label,$(python3 reduce.py --header)" > whatif.csv
for label in ${LABELS:-baseline newreno_2002 timers_2002 ns226 window_1000 cbr_phase cbr_phase_1ms calls16 cbr_random fack_ts_echo}; do
  calls=17
  tcp=Newreno
  [ "${label#fack_}" != "$label" ] && tcp=Fack
  [ "$label" = calls16 ] && calls=16
  for q in DropTail RED; do
    for seed in 1 2 3; do
      ns ch4.tcl "$tcp" "$q" "$calls" "$seed" 0 "| python3 $here/trace_reduce.py > $tmp/trace.txt" "${tcl[$label]}" > "$tmp/be.txt"
      echo "$label,$(python3 reduce.py "$tcp" "$q" "$calls" "$seed" 0 "$tmp/be.txt" "$tmp/trace.txt")" >> whatif.csv
    done
  done
done
