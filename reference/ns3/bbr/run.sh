#!/usr/bin/env bash
# Regenerates summary.csv and cycles.csv (one flow), four/summary.csv (four flows, flow i
# starting at i s, a 1000-packet buffer, over 30-60 s), four_q100/summary.csv (the same with
# the 100-packet buffer, where ns-3.37's TcpBbr collapses after timeouts) and dc_1g/ (one flow
# on a 1 Gb/s, 100 us path, DropTail 100 p, 12 s: over 0.5-10 s, before the first PROBE_RTT,
# and in dc_1g/probe_rtt/ over 10-12 s, where ns-3.37's bandwidth estimate collapses in
# PROBE_RTT) and dc_1g_four/ (four flows starting together on that path, 12 s, over 0.5-10 s,
# before their first PROBE_RTT at 10.016 s) from ns-3.37 (apt-get install ns3 libns3-dev
# libgsl-dev); the 1 Gb/s runs take about 40 s and 60 s.
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d)
bin=$dir/bbr_dumbbell
g++ -O1 -std=c++17 bbr_dumbbell.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
"$bin" | python3 reduce.py
"$bin" --flows=4 --spacing=1 --queue=1000 | python3 reduce.py four 30
mkdir -p four_q100
"$bin" --flows=4 --spacing=1 --queue=100 | python3 reduce.py four_q100
"$bin" --rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --sample-us=100 --duration=12 > "$dir/dc_1g.txt"
python3 reduce.py dc_1g 0.5 10 27.5 < "$dir/dc_1g.txt"
mkdir -p dc_1g/probe_rtt
python3 reduce.py dc_1g/probe_rtt 10 12 27.5 < "$dir/dc_1g.txt"
mkdir -p dc_1g_four
"$bin" --flows=4 --spacing=0 --rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --sample-us=100 --duration=12 \
    | python3 reduce.py dc_1g_four 0.5 10 27.5
