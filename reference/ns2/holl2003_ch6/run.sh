#!/usr/bin/env bash
# Regenerates ch6.csv and timeline.csv from ns-2.35 (apt-get install ns2): Holl 2003 chapter 6's
# step response under CBQ, NewReno and Vegas, with window_ 20 (wl 0) and with each pair's W_opt
# (wl 1), and with W_opt and Eq. 6.5's 401-packet buffer (wl 2), with the study's 0.5 s start jitter (seeds 1-5) and without it (seed 1, the thesis'
# setup). ch6.csv: one row per run (reduce.py). timeline.csv: NewReno with window_ 20, one row
# per run: its slow starts after a timeout in [158, 423.6] s (episodes.py, Table 6.4). About 5 s
# per run.
#   sh run.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 reduce.py --header > ch6.csv
echo "tcp,wl,seed,jitter,ss_episodes,ss_median_s,ss_ssthresh_median" > timeline.csv
for tcp in Newreno Vegas; do
  for wl in 0 1 2; do
    for run in "1 0" "1 1" "2 1" "3 1" "4 1" "5 1"; do
      set -- $run
      if [ "$tcp" = Newreno ] && [ "$wl" = 0 ]; then
        ns ch6.tcl "$tcp" "$wl" "$1" "$2" "$tmp/cwnd.tr" > "$tmp/be.txt"
        python3 episodes.py "$tmp/cwnd.tr" "$tcp" "$wl" "$1" "$2" >> timeline.csv
      else
        ns ch6.tcl "$tcp" "$wl" "$1" "$2" > "$tmp/be.txt"
      fi
      python3 reduce.py "$tcp" "$wl" "$1" "$2" "$tmp/be.txt" >> ch6.csv
    done
  done
done
