# Noureddine 2002 §3.2.1-3.2.2 (Figs 3.4, 3.6, 3.8) in ns-2.35: N chains of back-to-back
# transfers (each transfer a fresh Agent/TCP/Reno + TCPSink pair, as transfers.tcl) and, for the
# link-sharing figures, one long Agent/TCP/Reno transfer (FTP), through one 10 Mb/s drop-tail
# port. Twins of experiments/noureddine2002/scenarios/ch3_transfers.toml (parallel: the chains
# from s on 100 Mb/s), ch3_link_sharing.toml (sharing: chains from s1 on 100 Mb/s, the long
# transfer from s2 on 10 Mb/s) and ch3_link_sharing_rev.toml (reverse: the long transfer from
# s1, the chains from s2).
# argv: MODE N SIZE_BYTES LIMIT UNIT SEED
#   LIMIT UNIT: as transfers.tcl ("70000 B" in bytes, "50 p" in packets)
#   Starts as the twins: chain i at 10 ms x i and the long transfer at 5 ms (reverse: the long
#   transfer at 0, chain i at 5 ms + 10 ms x i), each plus a uniform
#   draw in [0, 10 ms) from ns-2's RNG seeded with SEED (nsim draws its own: only the
#   distribution is comparable); SEED 0 starts them without the draw. 30 s; every link 10 us.
# Prints: the chains' transfer throughput (b/s: per chain, the completed transfers' bytes over
# their summed durations, summed over chains, as the study's reducer), the chains' and the long
# transfer's goodput over the 30 s (b/s: bytes acknowledged, the chains' completed transfers
# plus the open ones' acknowledged segments), the completed transfers, the port's drops.
set mode [lindex $argv 0]
set n [lindex $argv 1]
set size [lindex $argv 2]
set limit [lindex $argv 3]
set unit [lindex $argv 4]
set seed [lindex $argv 5]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
set jitter [new RandomVariable/Uniform]
$jitter set min_ 0.0; $jitter set max_ 0.01
$jitter use-rng $defaultRNG
# SEED 0: no jitter (the starts exactly 10 ms apart), for event-level comparisons.
if {$seed == 0} { $jitter set max_ 0.0 }
set sw [$ns node]; set d [$ns node]
set s1 [$ns node]; set s2 [$ns node]
$ns duplex-link $sw $d 10Mb 10us DropTail
$ns duplex-link $s1 $sw 100Mb 10us DropTail
$ns duplex-link $s2 $sw 10Mb 10us DropTail
$ns queue-limit $s1 $sw 100000
$ns queue-limit $s2 $sw 100000
source [file join [file dirname [info script]] setup.tcl]
port_buffer $ns $sw $d $limit $unit
set qmon [$ns monitor-queue $sw $d ""]
set npkts [expr int(ceil($size / 1000.0))]
if {$mode == "reverse"} { set chain_src $s2; set long_src $s1 } else { set chain_src $s1; set long_src $s2 }
set done_n 0; set done_bytes 0
# A chain's open transfer, for the bytes it has acknowledged when the run ends.
proc start_transfer {i first} {
  global ns d chain_src npkts cur t0
  set tcp [new Agent/TCP/Reno]
  if {!$first} { $tcp set syn_ false }
  $tcp set fid_ $i
  set sink [new Agent/TCPSink]
  $ns attach-agent $chain_src $tcp; $ns attach-agent $d $sink; $ns connect $tcp $sink
  set cur($i) $tcp
  set t0($i) [$ns now]
  $tcp advance $npkts
}
Agent/TCP/Reno instproc done {} {
  global ns done_n done_bytes size t0 busy nbytes
  if {[$ns now] > 30.0} return
  set i [$self set fid_]
  incr done_n; set done_bytes [expr $done_bytes + $size]
  set busy($i) [expr $busy($i) + [$ns now] - $t0($i)]
  set nbytes($i) [expr $nbytes($i) + $size]
  $ns at [$ns now] "start_transfer [$self set fid_] 0"
}
if {$mode == "reverse"} { set chain_t0 0.005; set long_t0 0.0 } else { set chain_t0 0.0; set long_t0 0.005 }
for {set i 0} {$i < $n} {incr i} {
  set busy($i) 0.0; set nbytes($i) 0
  $ns at [expr $chain_t0 + 0.01 * $i + [$jitter value]] "start_transfer $i 1"
}
set long ""
if {$mode != "parallel"} {
  set long [new Agent/TCP/Reno]
  $long set fid_ 1000
  set lsink [new Agent/TCPSink]
  $ns attach-agent $long_src $long; $ns attach-agent $d $lsink; $ns connect $long $lsink
  set ftp [new Application/FTP]; $ftp attach-agent $long
  $ns at [expr $long_t0 + [$jitter value]] "$ftp start"
}
proc report {} {
  global done_n done_bytes qmon cur n long busy nbytes
  set open 0; set rate 0.0
  for {set i 0} {$i < $n} {incr i} {
    if {[info exists cur($i)]} { set open [expr $open + ([$cur($i) set ack_] + 1) * 1000] }
    if {$busy($i) > 0} { set rate [expr $rate + $nbytes($i) * 8 / $busy($i)] }
  }
  set lbps 0
  if {$long != ""} { set lbps [expr ([$long set ack_] + 1) * 1000 * 8 / 30.0] }
  puts "[format %.1f $rate],[format %.1f [expr ($done_bytes + $open) * 8 / 30.0]],[format %.1f $lbps],$done_n,[$qmon set pdrops_]"
  exit 0
}
$ns at 30.0 "report"
$ns run
