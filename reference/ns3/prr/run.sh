#!/usr/bin/env bash
# Regenerates summary.csv from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev).
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d)
g++ -O1 -std=c++17 prr_dumbbell.cc -o "$dir/prr_dumbbell" $(pkg-config --cflags --libs ns3-core ns3-network \
    ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control)
for r in prr crb classic; do "$dir/prr_dumbbell" --recovery=$r > "$dir/$r.txt"; done
# 1 % uniform random loss instead of the drop list, RngRun 1-5 (rows <recovery>_loss1_r<run>).
for r in prr classic; do for n in 1 2 3 4 5; do
    "$dir/prr_dumbbell" --recovery=$r --loss=0.01 --run=$n > "$dir/${r}_loss1_r$n.txt"
done; done
python3 reduce.py "$dir/prr.txt" "$dir/crb.txt" "$dir/classic.txt" "$dir"/prr_loss1_r?.txt "$dir"/classic_loss1_r?.txt
