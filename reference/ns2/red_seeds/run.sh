#!/bin/sh
# The RED two-source "stress" run (../red_two_source/, window 100, gentle_ false, 25 s) under
# ns-2 seeds 1-8 ($defaultRNG seed: it draws every TCP agent's boot_time_ and RED's drops), to
# show how much ns-2 itself varies from seed to seed. Writes max_ave.csv (max of ave_ sampled
# every 10 ms). usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
echo "seed,max_ave" > "$HERE/max_ave.csv"
for s in 1 2 3 4 5 6 7 8; do
  cat > "$RAW/w$s.tcl" <<TCL
global defaultRNG
\$defaultRNG seed $s
set argv [list 0 $RAW/r$s 25.0 100]
set argc 4
source $HERE/../red_two_source/scenario.tcl
TCL
  ns "$RAW/w$s.tcl" > /dev/null
  awk -v s=$s 'BEGIN{m=0} {if ($3+0 > m) m = $3+0} END{print s "," m}' "$RAW/r$s.qs" >> "$HERE/max_ave.csv"
done
