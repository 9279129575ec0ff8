#!/bin/sh
# Runs the ns-2 timing benchmarks and writes benches/reference/ns2_timings.csv
# usage: sh run_bench.sh [output_csv]
# Each configuration is run REPS times (default 3; the 1024-flow TCP run,
# which spends ~6 min in ns-2's route computation, only once) and the run with
# the median wall time is reported.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../../../benches/reference/ns2_timings.csv}
REPS=${REPS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
NSV=$(echo 'puts [ns-version]; exit' | ns)
CPU=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: *//; s/,/ /g')
echo "scenario,n_flows,sim_seconds,wall_s,max_rss_kb,bottleneck_departures,ns_version,cpu_model,setup_wall_s,run_wall_s,bottleneck_drops,reps,cpu_user_s,cpu_sys_s,loadavg_1m_before" > "$TMP/result.csv"
field() { echo "$1" | sed "s/.*$2=\([^ ]*\).*/\1/"; }
run() {
  reps=$1; shift; script=$1; shift
  : > "$TMP/rows"
  i=0
  while [ $i -lt $reps ]; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -v ns "$HERE/$script" "$@" > "$TMP/out" 2> "$TMP/time"
    res=$(grep '^RESULT' "$TMP/out")
    wall=$(grep 'Elapsed (wall clock)' "$TMP/time" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(grep 'Maximum resident set size' "$TMP/time" | awk '{print $NF}')
    usr=$(grep 'User time (seconds)' "$TMP/time" | awk '{print $NF}')
    sys=$(grep 'System time (seconds)' "$TMP/time" | awk '{print $NF}')
    echo "$wall $(field "$res" scenario),$(field "$res" n_flows),$(field "$res" sim_seconds),$wall,$rss,$(field "$res" bottleneck_departures),$NSV,$CPU,$(field "$res" setup_wall_s),$(field "$res" run_wall_s),$(field "$res" bottleneck_drops),$reps,$usr,$sys,$load" >> "$TMP/rows"
    echo "$res wall=$wall rss=$rss" >&2
    i=$((i+1))
  done
  sort -n "$TMP/rows" | sed -n "$(( (reps+1)/2 ))p" | cut -d' ' -f2- >> "$TMP/result.csv"
}
run $REPS tcp_dumbbell.tcl 16 100
run $REPS tcp_dumbbell.tcl 128 100
run 1 tcp_dumbbell.tcl 1024 100
run $REPS udp_dumbbell.tcl 64 100
cp "$TMP/result.csv" "$OUT"
