# A FullTcp (Reno) FTP transfer and a FullTcp/Newreno one with delayed ACKs over a DropTail
# bottleneck; the trace of every link.
set ns [new Simulator]
set tf [open full_tcp.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 20ms DropTail
$ns queue-limit $n2 $n3 12

set src0 [new Agent/TCP/FullTcp]
$src0 set fid_ 1
$src0 set window_ 30
set dst0 [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $src0
$ns attach-agent $n3 $dst0
$ns connect $src0 $dst0
$dst0 listen
set ftp0 [$src0 attach-app FTP]

Agent/TCP/FullTcp set segsize_ 1000
set src1 [new Agent/TCP/FullTcp/Newreno]
$src1 set fid_ 2
set dst1 [new Agent/TCP/FullTcp/Newreno]
$dst1 set segsperack_ 2
$ns attach-agent $n1 $src1
$ns attach-agent $n3 $dst1
$ns connect $src1 $dst1
$dst1 listen
set ftp1 [new Application/FTP]
$ftp1 attach-agent $src1

proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 0.1 "$ftp0 start"
$ns at 0.35 "$ftp1 start"
$ns at 5.0 "finish"
$ns run
