#!/usr/bin/env bash
# Regenerates summary.csv from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev): TcpCubic's
# HyStart with both detectors (ns-3's default), the ACK train only, and the delay only with
# Linux's 16 ms upper clamp, on nsim's scenarios/tcp_cubic_hystart.toml path.
set -euo pipefail
cd "$(dirname "$0")"
bin=$(mktemp -d)/cubic_hystart
g++ -O1 -std=c++17 cubic_hystart.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
rm -f summary.csv
"$bin" --detect=3 | python3 reduce.py both
"$bin" --detect=1 | python3 reduce.py train
"$bin" --detect=2 --delayMax=16 | python3 reduce.py delay_16ms
