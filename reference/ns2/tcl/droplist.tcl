# A CBR flow through an ns-2 ErrorModel/List (droplist {2 5}: ns-2 counts packets from 0)
# inserted with `$ns lossmodel`; ns-2.35 drops packets 2 and 5 before the queue (a `d` line
# only), at 0.02 s and 0.05 s.
set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]
set tf [open droplist.tr w]
$ns trace-all $tf
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set udp [new Agent/UDP]; $ns attach-agent $n0 $udp
set nul [new Agent/Null]; $ns attach-agent $n1 $nul
$ns connect $udp $nul
set cbr [new Application/Traffic/CBR]; $cbr attach-agent $udp
$cbr set packetSize_ 500
$cbr set interval_ 0.01
set em [new ErrorModel/List]
$em droplist {2 5}
$ns lossmodel $em $n0 $n1
puts "unit [$em unit]"
$ns at 0.0 "$cbr start"
$ns at 0.1 "$ns flush-trace; close $tf; exit 0"
$ns run
