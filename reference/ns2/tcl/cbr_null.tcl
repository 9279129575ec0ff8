# UDP constant bit rate sources (one given by rate_, one by interval_) into an Agent/Null and
# an Agent/LossMonitor over a DropTail bottleneck they overload; the trace of every link.
# (The second source starts at 1.0013 s so that no two packets are sent at the same instant:
# ns-2 orders such ties by floating-point rounding noise.)
set ns [new Simulator]
set tf [open cbr_null.tr w]
$ns trace-all $tf
set nf [open cbr_null.nam w]
$ns namtrace-all $nf

set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 5Mb 2ms DropTail
$ns duplex-link $n1 $n2 5Mb 2ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 10.1ms DropTail
$ns duplex-link-op $n2 $n3 queuePos 0.5
$ns queue-limit $n2 $n3 10

set udp0 [new Agent/UDP]
$udp0 set class_ 1
$ns attach-agent $n0 $udp0
set cbr0 [new Application/Traffic/CBR]
$cbr0 set packetSize_ 500
$cbr0 set rate_ 800Kb
$cbr0 attach-agent $udp0

set udp1 [new Agent/UDP]
$udp1 set class_ 2
$ns attach-agent $n1 $udp1
set cbr1 [new Application/Traffic/CBR]
$cbr1 set packetSize_ 1000
$cbr1 set interval_ 0.008
$cbr1 attach-agent $udp1

set null0 [new Agent/Null]
$ns attach-agent $n3 $null0
set lm [new Agent/LossMonitor]
$ns attach-agent $n3 $lm
$ns connect $udp0 $null0
$ns connect $udp1 $lm

proc finish {} {
    global ns tf nf
    $ns flush-trace
    close $tf
    close $nf
    exec nam cbr_null.nam &
    exit 0
}
$ns at 0.5 "$cbr0 start"
$ns at 1.0013 "$cbr1 start"
$ns at 4.0 "$cbr1 stop"
$ns at 4.5 "$cbr0 stop"
$ns at 5.0 "finish"
$ns run
