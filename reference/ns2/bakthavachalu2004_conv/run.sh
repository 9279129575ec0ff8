#!/usr/bin/env bash
# Regenerates convergence.csv from ns-2.35 (apt-get install ns2): for Vegas, Sack1, GAIMD, SQRT,
# IIAD, TFRC, Tahoe, Reno and NewReno, seeds
# 1-10, the delta-fair convergence time as the study's reducer measures it (flow0's first 1-s
# bin ending after the CBR stops at 20 s at or above 4.5 Mb/s; "never" within the 60-s run).
# `sh run.sh ecn` runs Table 5.10's ECN column instead (conv.tcl's ecn argument) into
# convergence_ecn.csv.
set -euo pipefail
cd "$(dirname "$0")"
ecn="${1:-}"
out="convergence${ecn:+_$ecn}.csv"
echo "variant,seed,convergence_s,settled_mbps" > "$out"
for v in Vegas Sack1 Gaimd Sqrt Iiad TFRC Tahoe Reno Newreno; do
  for s in 1 2 3 4 5 6 7 8 9 10; do
    ns conv.tcl "$v" "$s" $ecn | awk -v v="$v" -v s="$s" '
      $1 > 20 && $2 >= 4.5 && c == "" { c = $1 - 20 }
      $1 > 30 { sum += $2; n++ }
      END { printf "%s,%d,%s,%.3f\n", v, s, (c == "" ? "never" : c), sum / n }' >> "$out"
  done
done
