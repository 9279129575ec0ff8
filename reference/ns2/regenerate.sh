#!/bin/sh
# Re-run every ns-2 reference scenario and re-reduce the outputs into this
# directory.  Requires ns-2.35 (`ns` on PATH, e.g. Debian/Ubuntu `apt-get
# install ns2`), python3 (stdlib only) and GNU time (/usr/bin/time) for the
# benchmarks.  Raw ns-2 traces go to a temporary directory and are deleted.
#   sh regenerate.sh            # scenarios + benchmarks
#   sh regenerate.sh --no-bench # scenarios only
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$(mktemp -d)
trap 'rm -rf "$RAW"' EXIT
echo "ns version: $(echo 'puts [ns-version]; exit' | ns)"

# 1. Fall & Floyd: ns-2.35 defaults -> fall_floyd/, test-suite globals -> fall_floyd_classic/
sh "$HERE/fall_floyd/run.sh" default "$RAW/ff_default"
python3 "$HERE/reduce.py" ff "$RAW/ff_default" "$HERE/fall_floyd" default
sh "$HERE/fall_floyd/run.sh" classic "$RAW/ff_classic"
python3 "$HERE/reduce.py" ff "$RAW/ff_classic" "$HERE/fall_floyd_classic" classic

# 1b. Connection start-up (syn_ false, windowInit_ 4) -> tcp_start/
sh "$HERE/tcp_start/run.sh" "$RAW/tcp_start"

# 1c. HighSpeed TCP (windowOption_ 8) and standard Sack1 on a 99 Mb/s path -> highspeed/
sh "$HERE/highspeed/run.sh" "$RAW/highspeed"

# 1c2. Two HighSpeed (and two Sack1) flows on that path, the second from 30 s -> highspeed_two_flow/
sh "$HERE/highspeed_two_flow/run.sh"

# 1c3. A two-path failover and a rate step (Session routing) -> dynamics/
sh "$HERE/dynamics/run.sh"

# 1d. GAIMD and binomial (SQRT, IIAD) on the same path -> aimd/
sh "$HERE/aimd/run.sh" "$RAW/aimd"

# 1e. Vanilla TCP (noFastRetrans_) on the Fall & Floyd drop lists -> vanilla/
sh "$HERE/vanilla/run.sh" "$RAW/vanilla"

# 1e2. Reno without the multiple-fast-retransmit guard (bugFix_ false) on the same drop lists -> bugfix/
sh "$HERE/bugfix/run.sh" "$RAW/bugfix"

# 1e3. Which timestamp the sink echoes (ts_echo_bugfix_ true / false), FACK, drops 14 and 29 -> ts_echo/
sh "$HERE/ts_echo/run.sh" "$RAW/ts_echo"

# 1f. Full (two-way) TCP: Agent/TCP/FullTcp, /Newreno, /Tahoe, /Sack on the Fall & Floyd path -> fulltcp/
sh "$HERE/fulltcp/run.sh" "$RAW/fulltcp"

# 1g. FullTcp with Application/TcpApp: a telnet-like echo and one HTTP-like page -> fulltcp_stream/
sh "$HERE/fulltcp_stream/run.sh"

# 1h. Vegas: cwnd without loss (1 and 2 flows) and loss recovery on the Fall & Floyd path -> vegas/
sh "$HERE/vegas/run.sh"

# 1i. PagePool/WebTraf: the server answers once the request is acknowledged -> webtraf/
sh "$HERE/webtraf/run.sh"

# 2. RED two-source (window 15), gentle_ false and true; plus a window-100
#    "stress" run that produces forced (queue-limit) drops.
R="$HERE/red_two_source"
mkdir -p "$RAW/red"
ns "$R/scenario.tcl" 0 "$RAW/red/base" 25.0 15
ns "$R/scenario.tcl" 1 "$RAW/red/gentle_" 25.0 15
ns "$R/scenario.tcl" 0 "$RAW/red/stress_" 25.0 100
ns "$R/scenario.tcl" 1 "$RAW/red/stress_gentle_" 25.0 100
for f in tr q qs stats; do mv "$RAW/red/base.$f" "$RAW/red/.$f"; done
python3 "$HERE/reduce.py" red "$RAW/red" "$R" ""
python3 "$HERE/reduce.py" red "$RAW/red" "$R" gentle_ noevents
python3 "$HERE/reduce.py" red "$RAW/red" "$R" stress_
python3 "$HERE/reduce.py" red "$RAW/red" "$R" stress_gentle_ noevents
for p in gentle_ stress_gentle_; do
  case $p in gentle_) b=".tr";; *) b="stress_.tr";; esac
  if cmp -s "$RAW/red/$p.tr" "$RAW/red/$b"; then
    echo "note: ${p} packet trace identical to its gentle_=false counterpart"
  fi
done

# 3. Timing benchmarks (slow: the 1024-flow run spends minutes in ns-2's
#    static route computation)
if [ "$1" != "--no-bench" ]; then
  sh "$HERE/bench/run_bench.sh" "$HERE/../../benches/reference/ns2_timings.csv"
fi
