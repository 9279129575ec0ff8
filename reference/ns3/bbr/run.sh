#!/usr/bin/env bash
# Regenerates summary.csv and cycles.csv from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev).
set -euo pipefail
cd "$(dirname "$0")"
bin=$(mktemp -d)/bbr_dumbbell
g++ -O1 -std=c++17 bbr_dumbbell.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
"$bin" | python3 reduce.py
