#!/bin/sh
# Runs the HighSpeed reference (windowOption_ 8) and its standard-AIMD contrast (1), 30 s each,
# and reduces them into this directory. usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
ns "$HERE/scenario.tcl" 8 1.0 0.5 0 1 "$RAW/highspeed"
ns "$HERE/scenario.tcl" 1 1.0 0.5 0 1 "$RAW/sack1"
python3 "$HERE/reduce.py" "$RAW" "$HERE" highspeed sack1
