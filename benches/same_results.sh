#!/bin/sh
# Checks that two builds of the core give bit-identical results on every scenario of
# scenarios/, benches/scenarios/ and benches/scenarios/large/ (wall times aside): for data
# layout and speed changes, which must not change a single number.
# usage: sh benches/same_results.sh OLD_run_scenario NEW_run_scenario [SCENARIO...]
# (build each with `cargo build --release -p nsim-core --example run_scenario` and copy
# target/release/examples/run_scenario aside). Exits 1 if any scenario differs.
set -e
cd "$(dirname "$0")/.."
OLD=$1
NEW=$2
shift 2
[ $# -gt 0 ] || set -- scenarios/*.toml benches/scenarios/*.toml benches/scenarios/large/*.toml
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# Drops the wall-time fields, which differ from run to run.
STRIP='walk(if type == "object" then with_entries(select(.key | test("wall_s$") | not)) else . end)'
same=0
differ=0
for f in "$@"; do
  "$OLD" "$f" "$DIR/old.json" > /dev/null
  "$NEW" "$f" "$DIR/new.json" > /dev/null
  jq -S "$STRIP" "$DIR/old.json" > "$DIR/old.s.json"
  jq -S "$STRIP" "$DIR/new.json" > "$DIR/new.s.json"
  if cmp -s "$DIR/old.s.json" "$DIR/new.s.json"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "DIFFERS: $f"
    diff "$DIR/old.s.json" "$DIR/new.s.json" | head -5
  fi
done
echo "$same identical, $differ different"
[ "$differ" -eq 0 ]
