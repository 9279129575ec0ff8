#!/bin/sh
# GAIMD (Bakthavachalu 2004's GAIMD(1, 0.125) and Yang & Lam's TCP-friendly (0.3125, 7/8)) and binomial
# SQRT and IIAD (alpha 1.5, beta 1), 30 s each, with ../highspeed/scenario.tcl; reduced with
# ../highspeed/reduce.py.
# usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
ns "$HERE/../highspeed/scenario.tcl" 1 1.0 0.875 0 1 "$RAW/gaimd_1_0.125"
ns "$HERE/../highspeed/scenario.tcl" 1 0.3125 0.875 0 1 "$RAW/gaimd_friendly"
ns "$HERE/../highspeed/scenario.tcl" 6 1.5 0 0.5 0.5 "$RAW/sqrt"
ns "$HERE/../highspeed/scenario.tcl" 6 1.5 0 1 0 "$RAW/iiad"
python3 "$HERE/../highspeed/reduce.py" "$RAW" "$HERE" gaimd_1_0.125 gaimd_friendly sqrt iiad
