#!/usr/bin/env bash
# Regenerates four/, loss1/, dc_1g/ and dc_1g_four/ (runs.csv, summary.csv) and dc_1g_epochs/
# (epochs.csv, summary.csv) from ns-3.37 (apt-get install ns3 libns3-dev libgsl-dev): four flows
# starting 1 s apart, no loss, over 10-60 s; one flow with 1 % random loss, RngRun 1-5, over
# 10-60 s; one flow on a 1 Gb/s, 100 us path, over 0.5-2 s; the same for 20 s, its congestion
# epochs ending after 6 s (../cubic/reduce.py; about 4 minutes of ns-3); four flows starting
# together on that path, 10 s, over 1-10 s (about 70 s of ns-3); with 1 % random loss, RngRun
# 1-5: four flows starting 1 s apart, over 10-60 s (four_loss1/), and one and four flows on the
# 1 Gb/s path, 5 s, over 0.5-5 s (dc_1g_loss1/, dc_1g_four_loss1/: 2-100 s of ns-3 per run).
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d)
g++ -O1 -std=c++17 cubic_flows.cc -o "$dir/cubic_flows" $(pkg-config --cflags --libs ns3-core ns3-network \
    ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control)
"$dir/cubic_flows" --flows=4 --spacing=1 > "$dir/four.txt"
python3 reduce.py four 10 60 "$dir/four.txt"
for r in 1 2 3 4 5; do "$dir/cubic_flows" --flows=1 --loss=0.01 --run=$r > "$dir/loss1_$r.txt"; done
python3 reduce.py loss1 10 60 "$dir"/loss1_?.txt
"$dir/cubic_flows" --flows=1 --rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --duration=2 > "$dir/dc_1g.txt"
python3 reduce.py dc_1g 0.5 2 "$dir/dc_1g.txt"
"$dir/cubic_flows" --flows=1 --rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --duration=20 \
    | python3 ../cubic/reduce.py dc_1g_epochs 6 20
"$dir/cubic_flows" --flows=4 --spacing=0 --rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --duration=10 \
    > "$dir/dc_1g_four.txt"
python3 reduce.py dc_1g_four 1 10 "$dir/dc_1g_four.txt"
path="--rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --duration=5"
for n in 1 2 3 4 5; do
    "$dir/cubic_flows" --flows=4 --spacing=1 --loss=0.01 --run=$n > "$dir/four_loss1_$n.txt"
    "$dir/cubic_flows" --flows=1 --loss=0.01 $path --run=$n > "$dir/dc_1g_loss1_$n.txt"
    "$dir/cubic_flows" --flows=4 --spacing=0 --loss=0.01 $path --run=$n > "$dir/dc_1g_four_loss1_$n.txt"
done
mkdir -p four_loss1 dc_1g_loss1 dc_1g_four_loss1
python3 reduce.py four_loss1 10 60 "$dir"/four_loss1_?.txt
python3 reduce.py dc_1g_loss1 0.5 5 "$dir"/dc_1g_loss1_?.txt
python3 reduce.py dc_1g_four_loss1 0.5 5 "$dir"/dc_1g_four_loss1_?.txt
