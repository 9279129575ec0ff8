#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of transfers.tcl (Noureddine 2002 §3.2.1, Figs 3.2 and
# 3.3) on the grid of the study's ch3_transfers and ch3_rtt sweeps: file sizes x port buffers
# (30, 50, 70 KB in bytes, as the study reads them, and ns-2's packet-counted 50) x port delays.
# ns-2 is deterministic here (one run each; nsim's twin varies only the start time with its
# seed). About 3 min.
set -e
here=$(cd "$(dirname "$0")" && pwd)
echo "size,limit,delay,transfers,bytes,seconds,drops" > "$here/summary.csv"
for size in 20000 100000 250000 1000000 5000000; do
  for lim in "30000 B 30KB" "50000 B 50KB" "70000 B 70KB" "50 p 50p"; do
    set -- $lim
    for delay in 10us 1ms 2.5ms 5ms 7.5ms 10ms 15ms 20ms 30ms; do
      echo "$size,$3,$delay,$(ns "$here/transfers.tcl" "$size" "$1" "$2" "$delay")" >> "$here/summary.csv"
    done
  done
done
python3 "$here/reduce.py" "$here/summary.csv" "$here/sharing.csv" > "$here/rows.csv"
