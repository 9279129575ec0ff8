# A CBR flow whose shorter path fails at 1 s and is repaired at 2 s (`rtmodel-at`, Session
# routing): the packets take the longer way meanwhile; ns-2.35 writes `v` link-down/link-up
# lines into the trace.
set ns [new Simulator]
set tf [open rtmodel.tr w]
$ns trace-all $tf
$ns rtproto Session
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 2Mb 10ms DropTail
$ns duplex-link $n1 $n3 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 1Mb 15ms DropTail
$ns duplex-link $n2 $n3 1Mb 15ms DropTail
set udp [new Agent/UDP]
$udp set fid_ 1
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 400Kb
$cbr attach-agent $udp
$ns rtmodel-at 1.0 down $n1 $n3
$ns rtmodel-at 2.0 up $n1 $n3
$ns at 0.1 "$cbr start"
$ns at 3.0 "$ns flush-trace; close $tf; exit 0"
$ns run
