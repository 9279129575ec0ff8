#!/usr/bin/env bash
# Regenerates summary.csv and cycles.csv (one flow), four/summary.csv (four flows, flow i
# starting at i s, a 1000-packet buffer, over 30-60 s) and four_q100/summary.csv (the same with
# the 100-packet buffer, where ns-3.37's TcpBbr collapses after timeouts) from ns-3.37
# (apt-get install ns3 libns3-dev libgsl-dev).
set -euo pipefail
cd "$(dirname "$0")"
bin=$(mktemp -d)/bbr_dumbbell
g++ -O1 -std=c++17 bbr_dumbbell.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
"$bin" | python3 reduce.py
"$bin" --flows=4 --spacing=1 --queue=1000 | python3 reduce.py four 30
mkdir -p four_q100
"$bin" --flows=4 --spacing=1 --queue=100 | python3 reduce.py four_q100
