# Vegas cwnd trajectory in ns-2.35: N Agent/TCP/Vegas flows (ns-2 defaults: v_alpha_ 1,
# v_beta_ 3, v_gamma_ 1) on s_i -100Mb 2ms- r1 -10Mb 20ms DropTail(limit 100)- r2 -100Mb 2ms- d_i,
# packetSize_ 1000, window_ 100, Agent/TCPSink; flow i starts at i seconds; 10 s, no loss.
# argv: N.  Writes cwnd.tr (every cwnd_ change of every flow, ns-2 variable trace).
set n [lindex $argv 0]
set ns [new Simulator]
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 20ms DropTail
$ns queue-limit $r1 $r2 100
set tf [open cwnd.tr w]
for {set i 0} {$i < $n} {incr i} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 2ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
  set src [new Agent/TCP/Vegas]; set sink [new Agent/TCPSink]
  $src set fid_ $i
  $ns attach-agent $s($i) $src; $ns attach-agent $d($i) $sink; $ns connect $src $sink
  $src attach $tf
  $src trace cwnd_
  set ftp [new Application/FTP]; $ftp attach-agent $src
  $ns at [expr 1.0 * $i] "$ftp start"
}
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns at 10.0 "finish"
$ns run
