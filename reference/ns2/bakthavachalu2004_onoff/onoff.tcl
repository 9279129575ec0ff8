# Bakthavachalu 2004 Fig. 5.5 (long-term fairness under an ON/OFF CBR, with ECN) in ns-2.35: our
# twin of experiments/bakthavachalu2004/scenarios/onoff_15.toml (part onoff).
#   ns onoff.tcl <X: Sqrt | Iiad | Gaimd | Sack1> <CBR period in s> <seed>
# 4 Agent/TFRC flows and 4 flows of X share a 15 Mb/s, 20 ms RED bottleneck (packet mode, limit
# 94, thresholds 9.375 / 46.875, q_weight 0.05, linterm 10, gentle, setbit: ECN, every sender
# ecn_ 1); 100 Mb/s 2 ms access links. TFRC flow i starts at 50i ms, X flow i at 25 + 50i ms;
# a 10 Mb/s UDP CBR (1000-B packets) from a ninth pair is ON for the first half of each period
# and OFF for the second, for the 200 s run. X as in ../bakthavachalu2004_friendliness:
# Sqrt / Iiad = Agent/TCP/Sack1 windowOption_ 6 (k = l = 0.5 / k = 1, l = 0, increase_num_ 1.5,
# decrease_num_ 0), Gaimd = Sack1 with increase_num_ 1, decrease_num_ 0.875; TCP window_ 10000,
# packetSize_ 1000, singledup_ 0, precisionReduce_ false; SACK receivers.
# Prints one line per TFRC / X flow: "flow <fid> <bytes that left the bottleneck over the run>"
# (a flow monitor by fid on r1 -> r2).
set x [lindex $argv 0]
set period [lindex $argv 1]
set seed [lindex $argv 2]
set n 4
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
source [file join [file dirname [info script]] .. bakthavachalu2004_friendliness setup.tcl]
bak_red 9.375 46.875
bak_tcp
Queue/RED set setbit_ true
Agent/TCP set ecn_ 1
Agent/TFRC set packetSize_ 1000
Agent/TFRC set ecn_ 1
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 15Mb 20ms RED
$ns queue-limit $r1 $r2 94
for {set i 0} {$i <= 2 * $n} {incr i} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 2ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
}
for {set i 0} {$i < 2 * $n} {incr i} {
  if {$i < $n} {
    set src [new Agent/TFRC]; set sink [new Agent/TFRCSink]
  } else {
    set src [bak_sack1_sender $x]; set sink [new Agent/TCPSink/Sack1]
  }
  bak_class_flow $ns $i $n $src $sink $s($i) $d($i)
}
set udp [new Agent/UDP]; $udp set fid_ [expr 2 * $n]
set null [new Agent/Null]
$ns attach-agent $s([expr 2 * $n]) $udp; $ns attach-agent $d([expr 2 * $n]) $null; $ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000; $cbr set rate_ 10Mb; $cbr attach-agent $udp
for {set k 0} {$k * $period < 200.0} {incr k} {
  $ns at [expr $k * $period] "$cbr start"
  $ns at [expr $k * $period + $period / 2.0] "$cbr stop"
}
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon
proc finish {} {
  global fmon n
  for {set i 0} {$i < 2 * $n} {incr i} {
    set flow [[$fmon classifier] lookup auto 0 0 $i]
    puts "flow $i [expr {$flow eq "" ? 0 : [$flow set bdepartures_]}]"
  }
  exit 0
}
$ns at 200.0 "finish"
$ns run
