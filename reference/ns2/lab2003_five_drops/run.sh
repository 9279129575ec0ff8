#!/bin/sh
# Re-creates summary.csv (~8 min): scenario.tcl for Reno and Sack1 at T1 with the one-way delays
# of experiment 3 (10 ms baseline, 100 ms, 750 ms, 1 s) and at DS0 with the baseline's 10 ms,
# seeds 1-20 each (the seed draws the TCP clock's phase).
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
echo "variant,rate_bps,delay_s,seed,completion_s,timeouts,retransmits" > "$here/summary.csv"
run() {  # variant rate_bps rate delay
  for seed in $(seq 1 20); do
    (cd "$tmp" && echo "$1,$2,$4,$seed,$(ns "$here/scenario.tcl" "$1" "$3" "$4" "$seed")") >> "$here/summary.csv"
  done
}
for v in Reno Sack1; do
  for d in 0.01 0.1 0.75 1.0; do run $v 1544000 1.544Mb $d; done
  run $v 64000 64kb 0.01
done
rm -rf "$tmp"
