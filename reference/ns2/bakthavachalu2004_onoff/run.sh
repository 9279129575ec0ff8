#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of onoff.tcl (Bakthavachalu 2004 Fig. 5.5 with ECN) for
# X = Sack1, Gaimd, Sqrt, Iiad, the study's six CBR periods and seeds 1-3; about 1 min.
set -e
here=$(cd "$(dirname "$0")" && pwd)
echo "x,period_s,seed,tfrc_nt" > "$here/summary.csv"
for x in Sack1 Gaimd Sqrt Iiad; do
  for p in 0.01 0.1 1 4 16 64; do
    for s in 1 2 3; do
      ns "$here/onoff.tcl" "$x" "$p" "$s" | python3 "$here/reduce.py" "$x" "$p" "$s" >> "$here/summary.csv"
    done
  done
done
