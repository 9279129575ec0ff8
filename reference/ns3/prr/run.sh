#!/usr/bin/env bash
# Regenerates summary.csv, four/ (four Reno flows starting 1 s apart over a 100-packet DropTail
# buffer, 60 s, PRR-SSRB in four/prr/ and classic recovery in four/classic/, over 10-60 s:
# ../cubic_flows' program and reduce.py with NewReno), four_loss1/ (the same with 1 % random
# loss, RngRun 1-5), dc_1g_loss1/ (one flow with PRR-SSRB on a 1 Gb/s, 100 us path, DropTail
# 100 p, 1 % random loss, 5 s, RngRun 1-5, over 0.5-5 s; about 5 s of ns-3 per run) and
# dc_1g/, dc_1g_four/ (one and four flows starting together on that path without random loss,
# 5 s, over 1-5 s, PRR-SSRB and classic recovery; about a minute each) and dc_1g_four_loss1/
# (four flows starting together with PRR-SSRB on that path with 1 % random loss, 5 s, RngRun
# 1-5, over 0.5-5 s; 15-30 s of ns-3 per run) from ns-3.37 (apt-get install ns3 libns3-dev
# libgsl-dev).
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
g++ -O1 -std=c++17 ../cubic_flows/cubic_flows.cc -o "$dir/flows" $(pkg-config --cflags --libs ns3-core ns3-network \
    ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control)
for r in prr classic; do
    "$dir/flows" --flows=4 --spacing=1 --cc=ns3::TcpNewReno --recovery=$r > "$dir/four_$r.txt"
    python3 ../cubic_flows/reduce.py four/$r 10 60 "$dir/four_$r.txt"
    for n in 1 2 3 4 5; do
        "$dir/flows" --flows=4 --spacing=1 --cc=ns3::TcpNewReno --recovery=$r --loss=0.01 --run=$n > "$dir/four_loss1_${r}_$n.txt"
    done
    python3 ../cubic_flows/reduce.py four_loss1/$r 10 60 "$dir"/four_loss1_${r}_?.txt
done
for n in 1 2 3 4 5; do
    "$dir/flows" --flows=1 --cc=ns3::TcpNewReno --recovery=prr --loss=0.01 --rate=1Gbps --delay=100us --access=10Gbps \
        --access-delay=10us --duration=5 --run=$n > "$dir/dc_1g_loss1_$n.txt"
done
python3 ../cubic_flows/reduce.py dc_1g_loss1 0.5 5 "$dir"/dc_1g_loss1_?.txt
path="--rate=1Gbps --delay=100us --access=10Gbps --access-delay=10us --duration=5"
for r in prr classic; do
    "$dir/flows" --flows=1 --cc=ns3::TcpNewReno --recovery=$r $path > "$dir/dc_1g_$r.txt"
    python3 ../cubic_flows/reduce.py dc_1g/$r 1 5 "$dir/dc_1g_$r.txt"
    "$dir/flows" --flows=4 --spacing=0 --cc=ns3::TcpNewReno --recovery=$r $path > "$dir/dc_1g_four_$r.txt"
    python3 ../cubic_flows/reduce.py dc_1g_four/$r 1 5 "$dir/dc_1g_four_$r.txt"
done
for n in 1 2 3 4 5; do
    "$dir/flows" --flows=4 --spacing=0 --cc=ns3::TcpNewReno --recovery=prr --loss=0.01 $path --run=$n \
        > "$dir/dc_1g_four_loss1_$n.txt"
done
python3 ../cubic_flows/reduce.py dc_1g_four_loss1 0.5 5 "$dir"/dc_1g_four_loss1_?.txt
