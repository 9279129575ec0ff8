# One ns-2.35 Agent/TFRC flow over a path with uniform random packet loss p on the
# data direction; the bottleneck queue never overflows, so every loss is the error model's.
#   s --(100Mb, 2ms)-- r --(10Mb, 48ms, loss p)-- d      base RTT 100 ms
# Usage: ns scenario.tcl <p> <seed> <duration_s> <trace_file>
# Prints: summary lines (key value) and one "rate <t> <rate_Bps> <rtt_s> <p>" line per second.
set p [lindex $argv 0]
set seed [lindex $argv 1]
set dur [lindex $argv 2]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 100Mb 2ms DropTail
$ns duplex-link $r $d 10Mb 48ms DropTail
$ns queue-limit $s $r 10000
$ns queue-limit $r $d 10000
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns link-lossmodel $em $r $d
set tfrc [new Agent/TFRC]
set sink [new Agent/TFRCSink]
$ns attach-agent $s $tfrc
$ns attach-agent $d $sink
$ns connect $tfrc $sink
set ftp [new Application/FTP]
$ftp attach-agent $tfrc
set mon [$ns monitor-queue $r $d ""]
set tf [open [lindex $argv 3] w]
$ns trace-queue $r $d $tf
$ns trace-queue $d $r $tf
proc sample {} {
    global ns tfrc
    set t [$ns now]
    puts "rate $t [$tfrc set rate_]"
    $ns at [expr $t + 1.0] "sample"
}
proc finish {} {
    global ns sink tfrc mon tf
    close $tf
    puts "arrivals_pkts [$mon set parrivals_]"
    puts "arrival_bytes [$mon set barrivals_]"
    puts "departures_pkts [$mon set pdepartures_]"
        puts "ndatapack [$tfrc set ndatapack_]"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at 1.0 "sample"
$ns at $dur "finish"
$ns run
