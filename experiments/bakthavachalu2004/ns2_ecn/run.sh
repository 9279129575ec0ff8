#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of reference/ns2/bakthavachalu2004_friendliness/scenario.tcl
# without and with ECN (its fourth argument), reduced by reduce.py; traces go to a temporary
# directory and are deleted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
script="$here/../../../reference/ns2/bakthavachalu2004_friendliness/scenario.tcl"
tmp=$(mktemp -d)
echo "x,n,seed,ecn,tfrc_nt,x_nt,loss_pct" > "$here/summary.csv"
run() {
  d="$tmp/$1_$2_$3_$4"; mkdir -p "$d"; cd "$d"
  ns "$script" "$1" "$2" "$3" "$4" > /dev/null
  python3 "$here/reduce.py" "$1" "$2" "$3" "$4" >> "$here/summary.csv"
  rm -f bott.tr
}
for n in 4 16 32 64; do for e in 0 1; do run Sack1 $n 1 $e; done; done
for e in 0 1; do run Gaimd 16 1 $e; done
for n in 4 16 32 64; do for e in 0 1; do run Vegas $n 1 $e; done; done
for x in Sqrt Iiad; do for n in 4 16 32 64; do for e in 0 1; do run $x $n 1 $e; done; done; done
rm -rf "$tmp"
