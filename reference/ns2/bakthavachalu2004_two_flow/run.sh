#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of scenario.tcl (Bakthavachalu 2004's two-flow RED dumbbell),
# reduced by reduce.py; traces go to a temporary directory and are deleted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
echo "agent,rate_mbps,seed,singledup,flow,mean_mbps,std_mbps,cov_pct,timeouts" > "$here/summary.csv"
run() {
  d="$tmp/$1_$2_$3_$4"; mkdir -p "$d"; cd "$d"
  ns "$here/scenario.tcl" "$1" "$2" "$3" "$4" > /dev/null
  python3 "$here/reduce.py" "$1" "$2" "$3" "$4" >> "$here/summary.csv"
  rm -f bott.tr
}
for a in Newreno Reno Sack1 Tahoe; do for s in 1 2; do run $a 15 $s 0; done; done
for a in Reno Sack1; do run $a 15 1 1; done
for a in Newreno Reno Sack1 Tahoe; do run $a 60 1 0; done
rm -rf "$tmp"
