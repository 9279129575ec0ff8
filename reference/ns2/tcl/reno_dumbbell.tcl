# Two TCP Reno flows over a DropTail dumbbell; ns-2 trace of every link and cwnd_ of flow 1.
set ns [new Simulator]
set tf [open reno_dumbbell.tr w]
$ns trace-all $tf
set cf [open reno_dumbbell.cwnd w]

set s0 [$ns node]
set s1 [$ns node]
set r0 [$ns node]
set r1 [$ns node]
set d0 [$ns node]
set d1 [$ns node]
$ns duplex-link $s0 $r0 10Mb 2ms DropTail
$ns duplex-link $s1 $r0 10Mb 5ms DropTail
$ns duplex-link $r0 $r1 1.5Mb 20ms DropTail
$ns duplex-link $r1 $d0 10Mb 2ms DropTail
$ns duplex-link $r1 $d1 10Mb 2ms DropTail
$ns queue-limit $r0 $r1 15

set tcp0 [new Agent/TCP/Reno]
$tcp0 set fid_ 1
$tcp0 set window_ 40
$ns attach-agent $s0 $tcp0
set sink0 [new Agent/TCPSink]
$ns attach-agent $d0 $sink0
$ns connect $tcp0 $sink0
set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0
$tcp0 attach $cf
$tcp0 trace cwnd_

set tcp1 [new Agent/TCP/Newreno]
$tcp1 set fid_ 2
$tcp1 set packetSize_ 552
$ns attach-agent $s1 $tcp1
set sink1 [new Agent/TCPSink]
$ns attach-agent $d1 $sink1
$ns connect $tcp1 $sink1
set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1

proc finish {} {
    global ns tf cf
    $ns flush-trace
    close $tf
    close $cf
    exit 0
}
$ns at 0.1 "$ftp0 start"
$ns at 0.5 "$ftp1 start"
$ns at 4.5 "$ftp1 stop"
$ns at 5.0 "finish"
$ns run
