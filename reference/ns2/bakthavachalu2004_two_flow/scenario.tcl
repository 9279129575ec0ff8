# Bakthavachalu 2004 two-flow RED dumbbell in ns-2.35: argv: agent(Reno|Sack1|Newreno|"") rate_mbps seed singledup
# [minrto]: with a fifth argument the TCP timers are ns-2.1b8's (tcpTick_ 0.1, rtxcur_init_ 6,
# rfc2988_ false: ns-default.tcl's dated comments) with minrto_ set to it (whatif.sh)
set agent [lindex $argv 0]
set rate [lindex $argv 1]
set seed [lindex $argv 2]
set singledup [lindex $argv 3]
if {[llength $argv] > 4} {
  Agent/TCP set tcpTick_ 0.1
  Agent/TCP set rtxcur_init_ 6.0
  Agent/TCP set rfc2988_ false
  Agent/TCP set minrto_ [lindex $argv 4]
}
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
set bdp [expr $rate * 1e6 / 8 * 0.020 / 1000.0]
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set gentle_ true
Queue/RED set q_weight_ 0.05
Queue/RED set linterm_ 10
Queue/RED set thresh_ [expr 0.25 * $bdp]
Queue/RED set maxthresh_ [expr 1.25 * $bdp]
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 10000
Agent/TCP set singledup_ $singledup
Agent/TCP set precisionReduce_ false
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 ${rate}Mb 20ms RED
$ns queue-limit $r1 $r2 [expr int(ceil(2.5 * $bdp))]
set f [open bott.tr w]
$ns trace-queue $r1 $r2 $f
for {set i 0} {$i < 2} {incr i} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 2ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
  if {$agent == "Tahoe"} { set tcp [new Agent/TCP] } else { set tcp [new Agent/TCP/$agent] }
  $tcp set fid_ $i
  if {$agent == "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
  $ns attach-agent $s($i) $tcp; $ns attach-agent $d($i) $sink; $ns connect $tcp $sink
  set ftp [new Application/FTP]; $ftp attach-agent $tcp
  $ns at [expr 0.1 * $i] "$ftp start"
  set tcps($i) $tcp
}
proc finish {} { global ns f tcps; $ns flush-trace; close $f
  set o [open timeouts.txt w]; for {set i 0} {$i < 2} {incr i} { puts $o "$i [$tcps($i) set nrexmit_]" }; close $o; exit 0 }
$ns at 300.0 "finish"
$ns run
