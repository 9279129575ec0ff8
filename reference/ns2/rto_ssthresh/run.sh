#!/bin/sh
# ssthresh changes of Reno, GAIMD(1, 0.125) and SQRT on the Fall & Floyd path
# with packets 14-23 dropped (a fast retransmit, then a timeout), 20 s, ns-2.35 defaults.
# usage: sh run.sh   (writes <agent>_ssthresh.csv here; raw traces in a temporary directory)
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
for a in Reno Gaimd Sqrt; do
  (cd "$tmp" && ns "$here/../fall_floyd/scenario.tcl" $a "14 15 16 17 18 19 20 21 22 23" default $a 20 > /dev/null)
  lower=$(echo $a | tr 'A-Z' 'a-z')
  { echo "time_s,ssthresh"; awk '$6 == "ssthresh_" {print $1 "," $7}' "$tmp/$a.cw"; } > "$here/${lower}_ssthresh.csv"
  grep nrexmit_ "$tmp/$a.stats" | sed "s/^/$lower /" >> "$tmp/timeouts.txt"
done
# The pairing of a window rule with a recovery: GAIMD(1, 0.125) on Sack1, Reno, NewReno
# agents, Fall & Floyd's three drops (14 26 28), 10 s.
for a in Gaimd GaimdReno GaimdNewreno; do
  (cd "$tmp" && ns "$here/../fall_floyd/scenario.tcl" $a "14 26 28" default p$a 10 > /dev/null)
  lower=$(echo $a | tr 'A-Z' 'a-z')
  { echo "time_s,ssthresh"; awk '$6 == "ssthresh_" {print $1 "," $7}' "$tmp/p$a.cw"; } > "$here/pair_${lower}_ssthresh.csv"
  grep nrexmit_ "$tmp/p$a.stats" | sed "s/^/pair_$lower /" >> "$tmp/timeouts.txt"
done
cat "$tmp/timeouts.txt" > "$here/timeouts.txt"
rm -rf "$tmp"
