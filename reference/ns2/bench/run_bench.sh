#!/bin/sh
# Runs the ns-2 timing benchmarks and writes benches/reference/ns2_timings.csv
# usage: sh run_bench.sh [output_csv]   (run from anywhere)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../../../benches/reference/ns2_timings.csv}
TMP=$(mktemp -d)
NSV=$(echo 'puts [ns-version]; exit' | ns)
CPU=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: *//; s/,/ /g')
echo "scenario,n_flows,sim_seconds,wall_s,max_rss_kb,bottleneck_departures,ns_version,cpu_model,setup_wall_s,run_wall_s,bottleneck_drops" > "$OUT.tmp"
run() {
  script=$1; shift
  /usr/bin/time -v ns "$HERE/$script" "$@" > "$TMP/out" 2> "$TMP/time"
  res=$(grep '^RESULT' "$TMP/out")
  scen=$(echo "$res" | sed 's/.*scenario=\([^ ]*\).*/\1/')
  nf=$(echo "$res" | sed 's/.*n_flows=\([^ ]*\).*/\1/')
  st=$(echo "$res" | sed 's/.*sim_seconds=\([^ ]*\).*/\1/')
  dep=$(echo "$res" | sed 's/.*bottleneck_departures=\([^ ]*\).*/\1/')
  drp=$(echo "$res" | sed 's/.*bottleneck_drops=\([^ ]*\).*/\1/')
  sw=$(echo "$res" | sed 's/.*setup_wall_s=\([^ ]*\).*/\1/')
  rw=$(echo "$res" | sed 's/.*run_wall_s=\([^ ]*\).*/\1/')
  wall=$(grep 'Elapsed (wall clock)' "$TMP/time" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident set size' "$TMP/time" | awk '{print $NF}')
  echo "$scen,$nf,$st,$wall,$rss,$dep,$NSV,$CPU,$sw,$rw,$drp" >> "$OUT.tmp"
  echo "$res wall=$wall rss=$rss" >&2
}
run tcp_dumbbell.tcl 16 100
run tcp_dumbbell.tcl 128 100
run tcp_dumbbell.tcl 1024 100
run udp_dumbbell.tcl 64 100
mv "$OUT.tmp" "$OUT"
rm -rf "$TMP"
