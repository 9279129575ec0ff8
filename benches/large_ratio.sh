#!/bin/sh
# Issue 15's scale check: run-loop events/s of the 10,000-pair dumbbell (20,002 nodes) against
# the same 10,000 flows over one host pair, alternated REPS times in fresh processes, with the
# median of each and the ratio of the medians (target: at most 1.5). Not a test: wall-time
# figures depend on the machine and its load, so run it on an idle machine (the script prints
# the load average before and after).
# usage: sh benches/large_ratio.sh [REPS] [RUN_SCENARIO_BINARY]   (default 7, a fresh release build)
set -e
cd "$(dirname "$0")/.."
REPS=${1:-7}
BIN=$2
if [ -z "$BIN" ]; then
  cargo build --release -q -p nsim-core --example run_scenario
  BIN=target/release/examples/run_scenario
fi
ONE=benches/scenarios/large/dumbbell_10000_flows_one_pair.toml
MANY=benches/scenarios/large/dumbbell_10000_pairs.toml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
rate() { "$BIN" "$1" | sed 's/.* = \([0-9]*\) events\/s.*/\1/'; }
i=0
while [ "$i" -lt "$REPS" ]; do
  rate "$ONE" >> "$OUT/one"
  rate "$MANY" >> "$OUT/many"
  i=$((i + 1))
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {printf "%.0f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
one=$(median "$OUT/one")
many=$(median "$OUT/many")
echo "one pair (6 nodes): median $one events/s over $REPS runs ($(sort -n "$OUT/one" | tr '\n' ' '))"
echo "10,000 pairs (20,002 nodes): median $many events/s over $REPS runs ($(sort -n "$OUT/many" | tr '\n' ' '))"
echo "ratio of medians: $(awk -v a="$one" -v b="$many" 'BEGIN {printf "%.2f", a / b}') (target <= 1.5)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
