#!/bin/sh
# Re-creates failover_events.csv, failover_delivered.csv and pause_reduced.csv from ns-2.35
# (needs `ns`).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
ns failover.tcl "$tmp/failover.tr"
python3 reduce.py "$tmp/failover.tr" .
ns pause.tcl "$tmp/pause.tr"
python3 pause_reduce.py "$tmp/pause.tr" pause_reduced.csv
rm -rf "$tmp"
