#!/bin/sh
# Re-creates summary.csv: two HighSpeed (windowOption_ 8) and two standard Sack1 (1) flows,
# the second starting at 30 s, 300 s; traces go to a temporary directory and are deleted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
echo "rule,flow,bin_start_s,mbps" > "$here/summary.csv"
for w in 8 1; do
  ns "$here/scenario.tcl" $w 30.0 300.0 "$tmp/w$w" > /dev/null
  label=$([ $w = 8 ] && echo highspeed || echo sack1)
  python3 "$here/reduce.py" $label "$tmp/w$w" >> "$here/summary.csv"
  sed "s/^/$label /" "$tmp/w$w.stats" >> "$tmp/stats"
done
cp "$tmp/stats" "$here/stats.txt"
rm -rf "$tmp"
