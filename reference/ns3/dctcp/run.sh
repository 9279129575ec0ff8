#!/usr/bin/env bash
# Regenerates summary.csv from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev): two DCTCP
# flows, K = 20 packets, 200-packet buffer, over a 1 Gb/s 100 us bottleneck (2 s, steady state
# from 0.5 s) and a 10 Mb/s 40 ms one (60 s, steady state from 10 s); then one and four flows
# (all starting at 0 s) on each path into <path>_one/ and <path>_four/ (summary.csv, flows.csv);
# then one flow with 1 % random loss on r -> d, RngRun 1-5, on each path into <path>_loss1/
# (runs.csv, summary.csv).
set -euo pipefail
cd "$(dirname "$0")"
bin=$(mktemp -d)/dctcp_dumbbell
g++ -O1 -std=c++17 dctcp_dumbbell.cc -o "$bin" $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet \
    ns3-point-to-point ns3-applications ns3-traffic-control)
rm -f summary.csv
"$bin" --rate=1Gbps --access=10Gbps --delay=100us --duration=2 --sample=0.0001 | python3 reduce.py dc_1g 0.5
"$bin" --rate=10Mbps --access=100Mbps --delay=40ms --duration=60 --sample=0.001 | python3 reduce.py wan_10m 10
for n in one:1 four:4; do
    mkdir -p "dc_1g_${n%:*}" "wan_10m_${n%:*}"
    "$bin" --flows=${n#*:} --rate=1Gbps --access=10Gbps --delay=100us --duration=2 --sample=0.0001 \
        | python3 reduce.py "dc_1g_${n%:*}" 0.5 "dc_1g_${n%:*}"
    "$bin" --flows=${n#*:} --rate=10Mbps --access=100Mbps --delay=40ms --duration=60 --sample=0.001 \
        | python3 reduce.py "wan_10m_${n%:*}" 10 "wan_10m_${n%:*}"
done
for n in 1 2 3 4 5; do
    "$bin" --flows=1 --rate=1Gbps --access=10Gbps --delay=100us --duration=2 --sample=0.0001 --loss=0.01 --run=$n \
        > "$bin.dc_1g_loss1_$n.txt"
    "$bin" --flows=1 --rate=10Mbps --access=100Mbps --delay=40ms --duration=60 --sample=0.001 --loss=0.01 --run=$n \
        > "$bin.wan_10m_loss1_$n.txt"
done
mkdir -p dc_1g_loss1 wan_10m_loss1
python3 reduce.py dc_1g_loss1 0.5 dc_1g_loss1 "$bin".dc_1g_loss1_?.txt
python3 reduce.py wan_10m_loss1 10 wan_10m_loss1 "$bin".wan_10m_loss1_?.txt
