# A FullTcp (Reno) connection carrying data both ways: the opener's FTP from 0.1 s, the
# listener's own FTP from 0.5 s; ns-2 sends all of the listener's segments as `ack` packets
# (FullTcpAgent::listen sets type_ PT_ACK), its data too. The trace of every link.
set ns [new Simulator]
set tf [open full_tcp_twoway.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 10
$ns queue-limit $n2 $n1 10
Agent/TCP/FullTcp set segsize_ 1000
set src [new Agent/TCP/FullTcp]
$src set fid_ 1
set dst [new Agent/TCP/FullTcp]
$dst set fid_ 2
$ns attach-agent $n0 $src
$ns attach-agent $n2 $dst
$ns connect $src $dst
$dst listen
set ftp0 [$src attach-app FTP]
set ftp1 [$dst attach-app FTP]
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 0.1 "$ftp0 start"
$ns at 0.5 "$ftp1 start"
$ns at 3.0 "finish"
$ns run
