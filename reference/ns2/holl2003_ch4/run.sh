#!/usr/bin/env bash
# Regenerates ch4.csv from ns-2.35 (apt-get install ns2): Holl 2003 chapter 4 at 17 calls, the
# six one-way TCPs x Drop-Tail, RED (q_weight_ 0.002, the study's) and REDauto (ns-2.35's
# automatic q_weight_ -1, 1.9e-4 here), without start jitter (the thesis' setup) and with the
# study's 0.5 s jitter, seeds 1-3 each. One row per run (reduce.py); the trace of the hop goes
# through trace_reduce.py in a pipe and is never stored. About 10 s per run.
#   sh run.sh                      # all 108 runs
#   TCPS="Newreno" QUEUES="DropTail" sh run.sh   # a subset (written to ch4.csv all the same)
#   CALLS="1 2 3 4 5 6 7 8 9 10 11 12" QUEUES="DropTail RED" JITTERS=1 FACK_ECHO=thesis OUT=std.csv sh run.sh
#       std.csv: the RED std-dev row's points (README, "RED's fairness gain"); FACK_ECHO=thesis
#       gives FACK's sinks the study's echo rule (ts_echo_bugfix_ false), ch4.csv has ns-2.35's.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${OUT:-ch4.csv}
python3 reduce.py --header > "$out"
for calls in ${CALLS:-17}; do
  for tcp in ${TCPS:-Newreno Tahoe Reno Vegas Sack1 Fack}; do
    for q in ${QUEUES:-DropTail RED REDauto}; do
      echo_rule=""
      if [ "$tcp" = Fack ] && [ "${FACK_ECHO:-}" = thesis ]; then echo_rule="Agent/TCPSink set ts_echo_bugfix_ false"; fi
      for jitter in ${JITTERS:-0 1}; do
        for seed in ${SEEDS:-1 2 3}; do
          ns ch4.tcl "$tcp" "$q" "$calls" "$seed" "$jitter" "| python3 $here/trace_reduce.py > $tmp/trace.txt" "$echo_rule" > "$tmp/be.txt"
          python3 reduce.py "$tcp" "$q" "$calls" "$seed" "$jitter" "$tmp/be.txt" "$tmp/trace.txt" >> "$out"
        done
      done
    done
  done
done
