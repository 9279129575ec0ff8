#!/bin/sh
# Large-topology benchmark (issue 15): runs benches/scenarios/large/*.toml in fresh processes
# and prints events, events/s of the run loop, set-up time, CPU time and peak memory.
# Not a test: the figures depend on the machine and its load.
# usage: sh benches/large_topology.sh [--100k]
#   --100k  also runs the 10,000-pair dumbbell scaled to 50,000 pairs (100,002 nodes).
set -e
cd "$(dirname "$0")/.."
cargo build --release -q -p nsim-core --example run_scenario
BIN=target/release/examples/run_scenario
SCEN="benches/scenarios/large/*.toml"
if [ "$1" = "--100k" ]; then
  BIG=$(mktemp --suffix=.toml)
  trap 'rm -f "$BIG"' EXIT
  sed 's/10000/50000/g; s/10,000/50,000/g' benches/scenarios/large/dumbbell_10000_pairs.toml > "$BIG"
  SCEN="$SCEN $BIG"
fi
printf '%-40s %10s %12s %9s %9s %9s %8s\n' scenario events events/s setup_s run_s cpu_s rss_MB
for f in $SCEN; do
  TIME=$(mktemp)
  out=$(/usr/bin/time -v "$BIN" "$f" 2> "$TIME")
  # "<path>: <events> events in <run> s = <rate> events/s, ...; set-up <setup> s"
  events=$(echo "$out" | sed 's/.*: \([0-9]*\) events in.*/\1/')
  run=$(echo "$out" | sed 's/.* events in \([0-9.]*\) s.*/\1/')
  rate=$(echo "$out" | sed 's/.* = \([0-9]*\) events\/s.*/\1/')
  setup=$(echo "$out" | sed 's/.*set-up \([0-9.]*\) s.*/\1/')
  rss=$(grep 'Maximum resident set size' "$TIME" | awk '{print $NF}')
  cpu=$(grep -E '(User|System) time' "$TIME" | awk '{s += $NF} END {print s}')
  rm -f "$TIME"
  printf '%-40s %10s %12s %9s %9s %9s %8.0f\n' "$(basename "$f")" "$events" "$rate" "$setup" "$run" "$cpu" "$(echo "$rss / 1024" | bc -l)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
