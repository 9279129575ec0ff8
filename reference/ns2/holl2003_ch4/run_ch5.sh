#!/usr/bin/env bash
# Regenerates ch5.csv from ns-2.35 (apt-get install ns2): Holl 2003 chapter 5 (no calls, bit
# errors on the hop: ch4.tcl with "set ber B"), the six one-way TCPs x Drop-Tail x BER 1e-5,
# 3e-5, 1e-4 (the span of the row "SACK and FACK fall behind Vegas above 7e-6") and RED at 1e-4,
# with the study's 0.5 s start jitter, seeds 1-3; FACK's sinks echo timestamps as the study's
# (`ts_echo_bugfix_ false`, the thesis' release, README "Setup"). One row per run: the BER, then
# reduce.py's columns.
#   sh run_ch5.sh
#   POINTS="RED:1e-4" TCPS="Vegas Sack1" OUT=x.csv sh run_ch5.sh     # a subset
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${OUT:-ch5.csv}
echo "ber,$(python3 reduce.py --header)" > "$out"
for point in ${POINTS:-DropTail:1e-5 DropTail:3e-5 DropTail:1e-4 RED:1e-4}; do
  q=${point%%:*} ber=${point##*:}
  for tcp in ${TCPS:-Newreno Tahoe Reno Vegas Sack1 Fack}; do
    echo_rule=""
    if [ "$tcp" = Fack ]; then echo_rule="; Agent/TCPSink set ts_echo_bugfix_ false"; fi
    for seed in ${SEEDS:-1 2 3}; do
      ns ch4.tcl "$tcp" "$q" 0 "$seed" 1 "| python3 $here/trace_reduce.py > $tmp/trace.txt" "set ber $ber$echo_rule" > "$tmp/be.txt"
      echo "$ber,$(python3 reduce.py "$tcp" "$q" 0 "$seed" 1 "$tmp/be.txt" "$tmp/trace.txt")" >> "$out"
    done
  done
done
