#!/bin/sh
# Re-creates sharing.csv: ns-2.35 runs of sharing.tcl (Noureddine 2002 Figs 3.4, 3.6, 3.8) on the
# grids of the study's ch3_parallel, ch3_link_sharing and ch3_link_sharing_rev sweeps, each
# without start jitter (seed 0: event for event comparable with nsim at `start_jitter = "0s"`)
# and with seeds 1-5. About 2 min.
set -e
here=$(cd "$(dirname "$0")" && pwd)
echo "mode,n,size,limit,seed,chains_bps,chains_goodput_bps,long_goodput_bps,transfers,drops" > "$here/sharing.csv"
run() {  # mode n size limit-bytes label
  for seed in 0 1 2 3 4 5; do
    echo "$1,$2,$3,$5,$seed,$(ns "$here/sharing.tcl" "$1" "$2" "$3" "$4" B "$seed")" >> "$here/sharing.csv"
  done
}
for n in 1 2 4; do for lim in "30000 30KB" "60000 60KB"; do set -- $lim; run parallel $n 100000 $1 $2; done; done
for n in 1 5; do for size in 20000 100000 1000000; do run sharing $n $size 70000 70KB; done; done
for n in 1 2 4 8; do for size in 20000 100000 1000000; do run reverse $n $size 70000 70KB; done; done
