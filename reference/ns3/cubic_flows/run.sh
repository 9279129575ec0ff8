#!/usr/bin/env bash
# Regenerates four/ and loss1/ (runs.csv, summary.csv) from ns-3.37 (apt-get install ns3
# libns3-dev libgsl-dev): four flows starting 1 s apart, no loss; one flow with 1 % random loss,
# RngRun 1-5.
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d)
g++ -O1 -std=c++17 cubic_flows.cc -o "$dir/cubic_flows" $(pkg-config --cflags --libs ns3-core ns3-network \
    ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control)
"$dir/cubic_flows" --flows=4 --spacing=1 > "$dir/four.txt"
python3 reduce.py four "$dir/four.txt"
for r in 1 2 3 4 5; do "$dir/cubic_flows" --flows=1 --loss=0.01 --run=$r > "$dir/loss1_$r.txt"; done
python3 reduce.py loss1 "$dir"/loss1_?.txt
