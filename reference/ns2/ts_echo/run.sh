#!/bin/sh
# FACK on the Fall & Floyd path with drops 14 and 29 (the second loss is a segment sent during
# recovery, so a timeout follows), 6 s, with ts_echo_bugfix_ true (ns-2.35's default) and false;
# reduced with ../tcp_start/reduce.py; <run>.stats keeps the agent's counters at 6 s (rto_,
# srtt_, rttvar_ in ns-2's units).
# usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
for b in true false; do
  ns "$HERE/scenario.tcl" $b Fack "14 29" "$RAW/fack_14_29_bugfix_$b" 6.0
  mv "$RAW/fack_14_29_bugfix_$b.stats" "$HERE/"
done
python3 "$HERE/../tcp_start/reduce.py" "$RAW" "$HERE"
