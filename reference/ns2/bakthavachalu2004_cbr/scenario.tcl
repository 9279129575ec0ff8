# Bakthavachalu 2004 §6.2.4 (Fig. 6.9) in ns-2.35: one UDP CBR source at RATE and one FTP over
# Agent/TCP/Sack1 share a 1 Mb/s, 20 ms RED bottleneck; nsim's twin is
# experiments/bakthavachalu2004/scenarios/cbr_ftp_1m.toml (transport udp).
# argv: RATE (e.g. 1Mb) SEED
# RED in packet mode (ns-2.1b8), limit 7, thresholds 0.625/3.125 (Table 4.2 for 1 Mb/s),
# q_weight 0.05, linterm 10, gentle; 100 Mb/s 2 ms access links; CBR 1000-B packets from 0 s,
# FTP from 0.1 s; TCP window_ 10000, packetSize_ 1000, singledup_ 0, precisionReduce_ false.
# Prints: RATE, CBR goodput and FTP goodput (Mb/s) over the whole 100 s run, as the study's
# reducer counts them.
set rate [lindex $argv 0]
set seed [lindex $argv 1]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
source [file join [file dirname [info script]] .. bakthavachalu2004_friendliness setup.tcl]
bak_red 0.625 3.125
bak_tcp
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 1Mb 20ms RED
$ns queue-limit $r1 $r2 7
foreach i {0 1} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 2ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
}
set udp [new Agent/UDP]; $udp set packetSize_ 1000
set mon [new Agent/LossMonitor]
$ns attach-agent $s(0) $udp; $ns attach-agent $d(0) $mon; $ns connect $udp $mon
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000; $cbr set rate_ $rate; $cbr attach-agent $udp
set tcp [new Agent/TCP/Sack1]; set sink [new Agent/TCPSink/Sack1]
$ns attach-agent $s(1) $tcp; $ns attach-agent $d(1) $sink; $ns connect $tcp $sink
set ftp [new Application/FTP]; $ftp attach-agent $tcp
proc report {} {
  global mon tcp rate
  puts "$rate,[format %.4f [expr [$mon set bytes_] * 8 / 100e6]],[format %.4f [expr ([$tcp set ack_] + 1) * 1000 * 8 / 100e6]]"
  exit 0
}
$ns at 0.0 "$cbr start"
$ns at 0.1 "$ftp start"
$ns at 100.0 "report"
$ns run
