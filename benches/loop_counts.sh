#!/bin/sh
# Instructions and L1/LL data misses per event of the event loop, from callgrind's cache
# simulation (counts that do not depend on the machine's load, unlike wall time).
# usage: sh benches/loop_counts.sh RUN_SCENARIO_BINARY FILE.toml [DURATION]
# DURATION (e.g. 0.5s) shortens the scenario. The loop is `Simulator::advance` (or, before
# issue 27, `Simulator::run` minus `Results::collect`); set-up and parsing are left out.
set -e
BIN=$1
SCN=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
if [ -n "$3" ]; then
  sed "s/^duration = .*/duration = \"$3\"/" "$SCN" > "$DIR/scn.toml"
  SCN="$DIR/scn.toml"
fi
events=$("$BIN" "$SCN" | sed 's/.*: \([0-9]*\) events in.*/\1/')
valgrind --tool=callgrind --cache-sim=yes --dump-instr=no --callgrind-out-file="$DIR/cg.out" "$BIN" "$SCN" > /dev/null 2>&1
callgrind_annotate --inclusive=yes "$DIR/cg.out" > "$DIR/ann.txt"
# Columns (percentages dropped): Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
row() { grep -E "$1" "$DIR/ann.txt" | head -1 | sed 's/([^)]*)//g; s/,//g' | awk '{for (i = 1; i <= 9; i++) printf "%s ", $i; print ""}'; }
# The loop is `Simulator::advance` (issue 27); before, `Simulator::run` held it and collected
# the results at its end.
run=$(row ' [^ ]*sim::Simulator::advance \[')
collect="0 0 0 0 0 0 0 0 0"
if [ -z "$run" ]; then
  run=$(row ' [^ ]*sim::Simulator::run')
  collect=$(row ' [^ ]*results::Results::collect')
  [ -n "$collect" ] || collect="0 0 0 0 0 0 0 0 0"
fi
echo "$run" "$collect" | awk -v ev="$events" -v f="$(basename "$2")" '{
  ir = $1 - $10; d1r = $5 - $14; d1w = $6 - $15; dlr = $8 - $17; dlw = $9 - $18;
  printf "%s: %d events; loop per event: %.1f instr, %.2f L1 read misses, %.2f L1 write misses, %.3f LL misses (loop %.1f M instr)\n",
    f, ev, ir / ev, d1r / ev, d1w / ev, (dlr + dlw) / ev, ir / 1e6 }'
