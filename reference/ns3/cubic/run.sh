#!/usr/bin/env bash
# Regenerates epochs.csv and summary.csv from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev).
set -euo pipefail
cd "$(dirname "$0")"
bin=$(mktemp -d)/cubic_dumbbell
g++ -O1 -std=c++17 cubic_dumbbell.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
"$bin" | python3 reduce.py
