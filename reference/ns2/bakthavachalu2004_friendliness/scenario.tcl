# Bakthavachalu 2004 friendliness dumbbell (Tables 5.1-5.8, without ECN and, with the optional
# fourth argument, with it: the values in parentheses) in ns-2.35: n Agent/TFRC flows and n flows
# of X share the 60 Mb/s, 20 ms RED bottleneck; nsim's twin is
# experiments/bakthavachalu2004/scenarios/friend_60.toml (with setbit for ECN).
# argv: X (Vegas | Sqrt | Iiad | Sack1 | Gaimd | None) n seed [ecn (0 | 1), default 0]
#   None: the n TFRC flows alone (no X flows).
#   Gaimd: Agent/TCP/Sack1 with decrease_num_ 0.875, increase_num_ 1 (the thesis' GAIMD(1, 0.125)).
#   ecn 1: every sender ecn_ 1 (TFRC and TCP), RED setbit_ true (marks instead of early drops).
#   Vegas: Agent/TCP/Vegas (ns-2 defaults v_alpha_ 1, v_beta_ 3) + Agent/TCPSink;
#   Sqrt: Agent/TCP/Sack1 windowOption_ 6 (binomial k = l = 0.5, increase_num_ 1.5,
#   decrease_num_ 0, i.e. beta 1; as ../aimd) + Agent/TCPSink/Sack1; Iiad: the same with
#   k = 1, l = 0; Sack1: standard AIMD.
# RED in packet mode (ns-2.1b8), limit 375, thresholds 37.5/187.5, w_q 0.05, linterm 10,
# gentle; TCP window_ 10000, packetSize_ 1000, singledup_ 0, precisionReduce_ false; TFRC
# packetSize_ 1000. TFRC flow i starts at 50i ms, X flow i at 25 + 50i ms; 100 s.
# Writes bott.tr (the bottleneck queue trace).
set x [lindex $argv 0]
set n [lindex $argv 1]
set seed [lindex $argv 2]
set ecn [expr {[llength $argv] > 3 ? [lindex $argv 3] : 0}]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
source [file join [file dirname [info script]] setup.tcl]
bak_red 37.5 187.5
bak_tcp
Agent/TFRC set packetSize_ 1000
if {$ecn} {
  Queue/RED set setbit_ true
  Agent/TCP set ecn_ 1
  Agent/TFRC set ecn_ 1
}
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 60Mb 20ms RED
$ns queue-limit $r1 $r2 375
set f [open bott.tr w]
$ns trace-queue $r1 $r2 $f
for {set i 0} {$i < 2 * $n} {incr i} {
  if {$i >= $n && $x == "None"} break
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 2ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
  if {$i < $n} {
    set src [new Agent/TFRC]; set sink [new Agent/TFRCSink]
  } elseif {$x == "Vegas"} {
    set src [new Agent/TCP/Vegas]; set sink [new Agent/TCPSink]
  } else {
    set src [bak_sack1_sender $x]; set sink [new Agent/TCPSink/Sack1]
  }
  bak_class_flow $ns $i $n $src $sink $s($i) $d($i)
}
proc finish {} { global ns f; $ns flush-trace; close $f; exit 0 }
$ns at 100.0 "finish"
$ns run
