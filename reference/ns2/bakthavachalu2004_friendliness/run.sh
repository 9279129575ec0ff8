#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of scenario.tcl, reduced by reduce.py; traces go to a
# temporary directory and are deleted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
echo "x,n,seed,tfrc_nt,tfrc_nt_std,x_nt,x_nt_std" > "$here/summary.csv"
run() {
  d="$tmp/$1_$2_$3"; mkdir -p "$d"; cd "$d"
  ns "$here/scenario.tcl" "$1" "$2" "$3" > /dev/null
  python3 "$here/reduce.py" "$1" "$2" "$3" >> "$here/summary.csv"
  rm -f bott.tr
}
for n in 4 16 32 64; do run Vegas $n 1; done
for n in 4 16 32 64; do run Sqrt $n 1; done
for n in 4 64; do run Iiad $n 1; done
for n in 4 16; do run Sack1 $n 1; done
# tfrc_alone.csv: the 4 TFRC flows alone (X = None), RED's mean queue and drops, seeds 1-3
echo "seed,mean_queue_pkts,drops" > "$here/tfrc_alone.csv"
for seed in 1 2 3; do
  d="$tmp/none_$seed"; mkdir -p "$d"; cd "$d"
  ns "$here/scenario.tcl" None 4 "$seed" > /dev/null
  python3 "$here/queue.py" "$seed" >> "$here/tfrc_alone.csv"
  rm -f bott.tr
done
rm -rf "$tmp"
