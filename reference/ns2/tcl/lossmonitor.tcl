# A LossMonitor throughput procedure, as in the ns-2 tutorials: every 0.1 s it reads bytes_
# of the sink, writes the rate since the last call to a file and resets the counter; a TCP
# flow and a CBR flow share a DropTail bottleneck.
set ns [new Simulator]
set out [open lossmonitor.dat w]

set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 2ms DropTail
$ns duplex-link $n2 $n3 2Mb 20ms DropTail
$ns queue-limit $n2 $n3 20

set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 1Mb
$cbr attach-agent $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $n3 $lm
$ns connect $udp $lm

set tcp [new Agent/TCP/Newreno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

proc record {} {
    global ns lm out
    set interval 0.1
    set now [$ns now]
    set bytes [$lm set bytes_]
    puts $out [format "%.1f %.1f %d" $now [expr {$bytes * 8 / $interval / 1e3}] [$lm set npkts_]]
    $lm set bytes_ 0
    $ns at [expr {$now + $interval}] "record"
}

proc finish {} {
    global out
    close $out
    exit 0
}
$ns at 0.0 "record"
$ns at 0.2 "$cbr start"
$ns at 0.5 "$ftp start"
$ns at 4.0 "$ftp stop"
$ns at 4.5 "$cbr stop"
$ns at 5.0 "finish"
$ns run
