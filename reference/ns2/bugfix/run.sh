#!/bin/sh
# Reno with bugFix_ false (no guard against a second fast retransmit in one window: 4.3BSD-Reno,
# Goyal-Jain 1997 Fig. 2) on the Fall & Floyd drop lists (1-4 drops), 6 s each, with
# ../fall_floyd/scenario.tcl in mode nobugfix; reduced with ../tcp_start/reduce.py.
# usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
for n in 1 2 3 4; do
  case $n in 1) dl="14";; 2) dl="14 28";; 3) dl="14 26 28";; 4) dl="14 24 26 28";; esac
  ns "$HERE/../fall_floyd/scenario.tcl" Reno "$dl" nobugfix "$RAW/reno_${n}drop" 6.0
done
rm -f "$RAW"/*.stats
python3 "$HERE/../tcp_start/reduce.py" "$RAW" "$HERE"
