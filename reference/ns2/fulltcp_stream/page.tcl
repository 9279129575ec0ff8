# HTTP-like page over ns-2.35 FullTcp (Application/TcpApp): a 536 B request at 0 on a new
# connection; the server answers 41000 B (1 KB + 4 x 10 KB) once the request has arrived;
# printed: request time and the time the whole answer has arrived at the client.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 50ms DropTail
Agent/TCP/FullTcp set segsize_ 1000
Agent/TCP/FullTcp set window_ 100
Agent/TCP/FullTcp set windowInit_ 100
set c [new Agent/TCP/FullTcp]
set s [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $c
$ns attach-agent $n1 $s
$ns connect $c $s
$s listen
set ca [new Application/TcpApp $c]
set sa [new Application/TcpApp $s]
$ca connect $sa
Application/TcpApp instproc echo {k} {
    global ca
    $self send 41000 "$ca got $k"
}
Application/TcpApp instproc got {k} {
    global ns sent
    puts "$k $sent($k) [$ns now]"
}
proc key {k} {
    global ns ca sa sent
    set sent($k) [$ns now]
    $ca send 536 "$sa echo $k"
}
foreach k {0} {
    $ns at $k.0 "key $k"
}
$ns at 6.0 "exit 0"
$ns run
